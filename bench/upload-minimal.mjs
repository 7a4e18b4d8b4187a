#!/usr/bin/env node
// The floor for bench/upload.mjs: a plain node:http server that takes a PUT body, hashes it with
// sha256, stores it in a file in DIR and answers {size, sha256} (the bench removes the file after
// each round, as it deletes the service's). Prints its base URL on stdout, runs until killed.
//   node bench/upload-minimal.mjs DIR
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';

const dir = process.argv[2];
let n = 0;
const server = createServer({ requestTimeout: 0 }, (req, res) => {
  const path = join(dir, `upload-${++n}`);
  const hash = createHash('sha256');
  const file = createWriteStream(path, { highWaterMark: 1 << 20 });
  let size = 0;
  req.on('data', (chunk) => {
    hash.update(chunk);
    size += chunk.length;
  });
  req.pipe(file);
  file.on('close', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ size, sha256: hash.digest('hex') }));
  });
});
server.listen(0, '127.0.0.1', () => console.log(`http://127.0.0.1:${server.address().port}`));
