import { loadConfig } from '../config';
import { openConfiguredDb } from '../db/open';
import { demoLoginsText, isEmpty, seedDemo } from './seed';

const handle = await openConfiguredDb(loadConfig(process.env, { serving: false }));
if (await isEmpty(handle.db)) {
  await seedDemo(handle.db);
  console.log(demoLoginsText());
} else {
  console.log('The database already has users: nothing seeded.');
}
await handle.close();
