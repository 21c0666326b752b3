import { loadConfig } from '../config';
import { openConfiguredDb } from '../db/open';
import { removeDemo } from './demo';

// npm run db:remove-demo: deletes the demo accounts and the demo invite code from the configured database
const handle = await openConfiguredDb(loadConfig(process.env, { serving: false }));
const { accounts, codes } = await removeDemo(handle.db);
console.log(`Removed ${accounts} demo account(s) and ${codes} demo invite code(s).`);
await handle.close();
