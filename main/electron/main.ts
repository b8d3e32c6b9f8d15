// The Electron main process: one Folio per user (single-instance lock), the core with its REST API on
// loopback (the same as `folio serve`), the window answering the renderer over IPC, the menu, and a
// quit that lets running jobs stop at a safe point. Started by main.mjs: compiled (dist/main/electron.js) or
// from the sources.
import { app, clipboard, dialog, ipcMain, Menu, protocol, shell, type BrowserWindow } from 'electron';
import path from 'node:path';
import { loadConfig, type Config } from '../config.ts';
import { openCore, type Core } from '../core.ts';
import { startServer, PortInUseError, type RunningServer } from '../server.ts';
import { InstanceLockedError } from '../instanceLock.ts';
import { allRoutes } from '../http/routes/index.ts';
import { RouteDispatcher } from '../http/dispatch.ts';
import { appRoot } from '../paths.ts';
import { IPC_CHANNELS, type MenuCommand } from '../../shared/desktopBridge.ts';
import { ipcHandlers, registerIpcHandlers } from './ipc.ts';
import { APP_SCHEME, isAppUrl } from './security.ts';
import { createMainWindow, guardContents, secureSession } from './window.ts';
import { menuTemplate } from './menu.ts';
import { filesFromArgv, readImports } from './imports.ts';
import { closeWithin } from './shutdown.ts';

interface Running {
  core: Core;
  server: RunningServer;
}

let running: Running | undefined;
let mainWindow: BrowserWindow | undefined;
/** Files named before the window could take them (first launch, macOS open-file before ready). */
const pendingImports: string[] = [];

// Before ready (Electron requires it): the app scheme is a standard, secure origin that may use fetch.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);

let config: Config;
try {
  config = loadConfig(process.env);
  // Chromium's own files (caches, session storage) go into the data folder too: one folder holds it all.
  app.setPath('userData', path.join(config.dataDir, 'desktop'));
} catch (err) {
  dialog.showErrorBox('Folio cannot start', (err as Error).message);
  app.exit(1);
  throw err;
}

if (!app.requestSingleInstanceLock()) {
  // The first Folio gets this launch's files through its second-instance event.
  app.quit();
} else {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      mainWindow.focus();
    }
    void importFiles(filesFromArgv(argv, workingDirectory, appRoot));
  });
  app.on('open-file', (event, file) => {
    event.preventDefault();
    void importFiles([file]);
  });
  app.on('web-contents-created', (_event, contents) => guardContents(contents, apiUrl));
  // macOS keeps an app without windows running (its API keeps serving scripts); activate reopens one.
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (running && !mainWindow) openWindow();
  });
  app.on('before-quit', beforeQuit);
  pendingImports.push(...filesFromArgv(process.argv, process.cwd(), appRoot));
  app.whenReady().then(start).catch(fail);
}

function apiUrl(): string {
  return running?.server.url ?? '';
}

async function start(): Promise<void> {
  const core = await openCore(config);
  let server: RunningServer;
  try {
    server = await listen(core);
  } catch (err) {
    await core.close();
    throw err;
  }
  running = { core, server };
  core.startImports();
  const dispatcher = new RouteDispatcher(core, allRoutes, server.url);
  registerIpcHandlers(ipcMain, ipcHandlers(dispatcher), (event) => isAppUrl(event.senderFrame?.url ?? ''));
  // Not an API call, so not in the handler table: the page gets a path, which the API then checks.
  ipcMain.handle(IPC_CHANNELS.chooseFolder, (event) => (isAppUrl(event.senderFrame?.url ?? '') ? chooseFolder() : null));
  secureSession(apiUrl);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        {
          importDocuments: () => void chooseImports(),
          openDataFolder: () => void shell.openPath(config.dataDir),
          openApiReference: () => void shell.openExternal(`${server.url}/swagger/`),
          showShortcuts: () => sendMenu({ kind: 'show-shortcuts' }),
        },
        { platform: process.platform, packaged: app.isPackaged },
      ),
    ),
  );
  openWindow();
  const admin = await core.services.users.ensureAdmin(config.adminEmail, config.adminPassword);
  if (admin?.generated) await showFirstRun(admin.email, admin.password);
}

function openWindow(): void {
  const win = createMainWindow(apiUrl(), config.dataDir);
  mainWindow = win;
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = undefined;
  });
  win.webContents.once('did-finish-load', () => {
    const files = pendingImports.splice(0);
    if (files.length) void importFiles(files);
  });
}

/** The API on its port; a taken port is explained, and the user may go on with a free one. */
async function listen(core: Core): Promise<RunningServer> {
  try {
    return await startServer(core);
  } catch (err) {
    if (!(err instanceof PortInUseError)) throw err;
    const { response } = await dialog.showMessageBox({
      type: 'warning',
      title: 'Folio',
      message: `Folio's API cannot use port ${core.config.port}: another program is using it.`,
      detail: `${err.message}\n\nWith a free port Folio works as usual, but local scripts must use the address shown in Settings instead of the usual one.`,
      buttons: ['Use a Free Port', 'Quit'],
      defaultId: 0,
      cancelId: 1,
    });
    if (response !== 0) throw err;
    return startServer({ ...core, config: { ...core.config, port: 0 } });
  }
}

function sendMenu(command: MenuCommand): void {
  mainWindow?.webContents.send(IPC_CHANNELS.menu, command);
}

async function chooseImports(): Promise<void> {
  const options = { title: 'Import Documents', properties: ['openFile', 'multiSelections'] as Array<'openFile' | 'multiSelections'> };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  if (!result.canceled) await importFiles(result.filePaths);
}

/** The import-folder form's folder chooser: the chosen folder's path, or null when cancelled. */
async function chooseFolder(): Promise<string | null> {
  const options = { title: 'Choose an Import Folder', properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> };
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
  return result.canceled ? null : (result.filePaths[0] ?? null);
}

async function importFiles(paths: string[]): Promise<void> {
  if (!paths.length) return;
  if (!running || !mainWindow || mainWindow.webContents.isLoading()) {
    pendingImports.push(...paths);
    return;
  }
  const { files, skipped } = await readImports(paths, running.core.config.maxUploadBytes);
  if (files.length) sendMenu({ kind: 'import-documents', files });
  if (skipped.length) {
    await dialog.showMessageBox(mainWindow, {
      type: 'warning',
      title: 'Folio',
      message: `${skipped.length === 1 ? 'One file was' : `${skipped.length} files were`} not imported.`,
      detail: skipped.map((s) => `${s.file}: ${s.reason}`).join('\n'),
    });
  }
}

async function showFirstRun(email: string, password: string): Promise<void> {
  const options = {
    type: 'info' as const,
    title: 'Welcome to Folio',
    message: 'Folio created your administrator account.',
    detail: `Email: ${email}\nPassword: ${password}\n\nKeep this password: it is not shown again.`,
    buttons: ['Copy Password', 'OK'],
    defaultId: 0,
  };
  const { response } = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
  if (response === 0) clipboard.writeText(password);
}

let shutdown: 'running' | 'closing' | 'closed' = 'running';

/** Quitting waits (bounded) for the server and the core to close; jobs stop at their next safe point. */
function beforeQuit(event: Electron.Event): void {
  if (shutdown === 'closed' || !running) return;
  event.preventDefault();
  if (shutdown === 'closing') return;
  shutdown = 'closing';
  const { core, server } = running;
  void closeWithin(async () => {
    await server.close();
    await core.close();
  }).then((outcome) => {
    if (outcome === 'timed-out') console.warn('[folio] the core did not close in time; quitting anyway (jobs resume at the next start)');
    shutdown = 'closed';
    app.quit();
  });
}

function fail(err: unknown): void {
  const message =
    err instanceof InstanceLockedError || err instanceof PortInUseError
      ? err.message
      : `${(err as Error)?.message ?? String(err)}\n\nThe details are in the Folio log.`;
  console.error('[folio] start-up failed:', err);
  dialog.showErrorBox('Folio cannot start', message);
  app.exit(1);
}
