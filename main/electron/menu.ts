// The application menu as data: what each entry is called, its shortcut and which action it runs. The
// actions come from main.ts; keeping the template pure lets a test read it without Electron.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** Native open dialog, then the chosen files go to the renderer to be uploaded into the open project. */
  importDocuments(): void;
  openDataFolder(): void;
  /** The Swagger UI of the embedded API, in the system browser. */
  openApiReference(): void;
  /** Asks the renderer to show its keyboard shortcuts ("?"). */
  showShortcuts(): void;
}

export function menuTemplate(actions: MenuActions, opts: { platform: NodeJS.Platform; packaged: boolean }): MenuItemConstructorOptions[] {
  const mac = opts.platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Import Documents…', accelerator: 'CmdOrCtrl+O', click: () => actions.importDocuments() },
      { type: 'separator' },
      { label: 'Open Data Folder', click: () => actions.openDataFolder() },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      // Developer tools only in a development run: an installed app has no use for them.
      ...(opts.packaged ? [] : [{ role: 'toggleDevTools' } as const]),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [
      // Shown, not registered: "?" must still reach the page (its own shortcut, and typing in fields).
      { label: 'Keyboard Shortcuts', accelerator: '?', registerAccelerator: false, click: () => actions.showShortcuts() },
      { label: 'API Reference', click: () => actions.openApiReference() },
    ],
  };
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
    help,
  ];
}
