// s3rver as a process of its own, started by test/helpers/s3rver.ts: `node --openssl-legacy-provider
// s3rverProcess.cjs <folder> <bucket>`. s3rver signs ListObjectsV2 continuation tokens with DES, which
// Node's OpenSSL 3 has only in its legacy provider, hence the flag (and the process: the flag cannot be
// turned on inside a running test). Prints {"port": n} once it listens; exits when its parent's pipe closes,
// so a test process that is killed leaves no server behind.
'use strict';
const S3rver = require('s3rver');

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({ port: 0, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: bucket, configs: [] }] });
server.run().then(
  ({ port }) => process.stdout.write(`${JSON.stringify({ port })}\n`),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
