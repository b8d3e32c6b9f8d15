// Entry point of the renderer: mounts the app into index.html's #root.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { relayDesktopMenu } from './api/ipcTransport.ts';
import './styles.css';

// In the desktop window the app menu's commands (import, shortcuts) reach the page through the bridge.
if (window.folio) relayDesktopMenu(window.folio);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
