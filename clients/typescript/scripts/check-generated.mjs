// Fails when src/schema.d.ts differs from what openapi-typescript generates from the current
// document: the client never drifts from the contract. On a failure, run `npm run generate`
// in clients/typescript (or `make clients`).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generate } from './generate.mjs';

const dir = mkdtempSync(join(tmpdir(), 'podium-schema-'));
try {
  const fresh = join(dir, 'schema.d.ts');
  await generate(fresh);
  const committed = readFileSync(new URL('../src/schema.d.ts', import.meta.url), 'utf8');
  if (readFileSync(fresh, 'utf8') !== committed) {
    console.error('src/schema.d.ts differs from a fresh generation: run npm run generate in clients/typescript');
    process.exit(1);
  }
  console.log('src/schema.d.ts is current');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
