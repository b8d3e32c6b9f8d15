// The `folio` program: runs the command line (cli.ts) with this process's arguments. bin/folio.mjs loads
// it, compiled (dist/main/cli.js, which `node dist/main/cli.js serve` also runs) or from the sources.
import { main } from './cli.ts';

const code = await main(process.argv.slice(2));
// Exit explicitly once the command is done: a worker thread or timer that outlived a shutdown must not
// keep a stopped server alive.
process.exit(typeof code === 'number' ? code : 0);
