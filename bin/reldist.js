#!/usr/bin/env node
// CommonJS (bin/package.json), like dist/: an ES module here would start Node's ES module loader
// for nothing, a few ms on every run (docs/startup.md).
require('../dist/main.js');
