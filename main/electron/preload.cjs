// @ts-check
// The preload of the Folio window. Sandboxed, so plain CommonJS in one file (its `require` knows electron's
// renderer modules only). It exposes ONE object, `window.folio` (shared/desktopBridge.ts FolioBridge):
// the API address and functions forwarding to the main process's handler table (ipc.ts). Neither
// ipcRenderer nor an IPC event ever reaches the page.
'use strict';

/** The same names as IPC_CHANNELS in shared/desktopBridge.ts (a test keeps them equal). */
const CHANNELS = Object.freeze({ request: 'folio:request', upload: 'folio:upload', menu: 'folio:menu', chooseFolder: 'folio:choose-folder' });
/** main.ts passes the API's address and the data folder as additional arguments of the renderer process. */
const API_URL_ARG = '--folio-api-url=';
const DATA_DIR_ARG = '--folio-data-dir=';

/**
 * @param {Pick<import('electron').IpcRenderer, 'invoke' | 'on' | 'removeListener'>} ipc
 * @param {string[]} argv
 * @returns {import('../../shared/desktopBridge.ts').FolioBridge}
 */
function buildBridge(ipc, argv) {
  /** @param {string} prefix */
  const argument = (prefix) => {
    const arg = argv.find((a) => a.startsWith(prefix));
    return arg ? arg.slice(prefix.length) : '';
  };
  /** @type {import('../../shared/desktopBridge.ts').FolioBridge} */
  const bridge = {
    apiUrl: argument(API_URL_ARG),
    dataDir: argument(DATA_DIR_ARG),
    request: (req) => ipc.invoke(CHANNELS.request, req),
    upload: (req) => ipc.invoke(CHANNELS.upload, req),
    onMenu(listener) {
      if (typeof listener !== 'function') throw new TypeError('onMenu takes a function.');
      /** @type {(event: unknown, command: import('../../shared/desktopBridge.ts').MenuCommand) => void} */
      const relay = (_event, command) => listener(command);
      ipc.on(CHANNELS.menu, relay);
      return () => {
        ipc.removeListener(CHANNELS.menu, relay);
      };
    },
    // Takes nothing from the page: the main process opens the dialog and answers a path or null.
    chooseFolder: () => ipc.invoke(CHANNELS.chooseFolder),
  };
  return Object.freeze(bridge);
}

/**
 * @param {Pick<import('electron').ContextBridge, 'exposeInMainWorld'>} contextBridge
 * @param {Pick<import('electron').IpcRenderer, 'invoke' | 'on' | 'removeListener'>} ipc
 * @param {string[]} argv
 */
function exposeBridge(contextBridge, ipc, argv) {
  contextBridge.exposeInMainWorld('folio', buildBridge(ipc, argv));
}

if (typeof module !== 'undefined') module.exports = { CHANNELS, API_URL_ARG, DATA_DIR_ARG, buildBridge, exposeBridge };

// In the window this file is the preload (Electron's renderer process); in tests it is only a module.
if (process.type === 'renderer') {
  const { contextBridge, ipcRenderer } = require('electron');
  exposeBridge(contextBridge, ipcRenderer, process.argv);
}
