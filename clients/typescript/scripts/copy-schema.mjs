// tsc emits no declaration file for src/schema.d.ts, which dist/index.d.ts imports: copy it.
import { copyFileSync } from 'node:fs';

copyFileSync(new URL('../src/schema.d.ts', import.meta.url), new URL('../dist/schema.d.ts', import.meta.url));
