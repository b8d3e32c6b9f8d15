// Where the application's own files are (not the user's data folder: see config.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const appRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const rendererDist = path.join(appRoot, 'dist', 'renderer');
