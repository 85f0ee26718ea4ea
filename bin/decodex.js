#!/usr/bin/env node
// The decodex command runs its TypeScript sources through tsx, so there is no build step to forget.
require('tsx/cjs');
require('../cli/main.ts');
