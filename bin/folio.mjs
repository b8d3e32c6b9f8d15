#!/usr/bin/env node
// The `folio` command: loads the TypeScript CLI through tsx (no build step needed to run Folio).
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

register();
const here = path.dirname(fileURLToPath(import.meta.url));
const { main } = await import(path.join(here, '..', 'main', 'cli.ts'));
const code = await main(process.argv.slice(2));
// Exit explicitly once the command is done: a worker thread or timer that outlived a shutdown must not
// keep a stopped server alive.
process.exit(typeof code === 'number' ? code : 0);
