import { loadConfig } from '../config';
import { openConfiguredDb } from './open';

const handle = await openConfiguredDb(loadConfig(process.env, { serving: false }));
console.log(`Migrations applied (${handle.kind}).`);
await handle.close();
