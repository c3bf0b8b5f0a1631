// Copies non-TypeScript assets (SQL migrations) next to the compiled code.
import { cpSync, mkdirSync } from 'node:fs';
mkdirSync('dist/src/store/migrations', { recursive: true });
cpSync('src/store/migrations', 'dist/src/store/migrations', { recursive: true, filter: (p) => !p.endsWith('.ts') });
