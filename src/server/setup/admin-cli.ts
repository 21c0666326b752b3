import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { openConfiguredDb } from '../db/open';
import { upsertAdmin } from '../modules/auth/service';
import { passwordSchema } from '../../shared/schemas/auth';

// npm run admin:create -- --email E --password P [--name N]
const { values } = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } } });
if (!values.email || !values.password) {
  console.error('Usage: npm run admin:create -- --email E --password P [--name N]');
  process.exit(2);
}
const pw = passwordSchema.safeParse(values.password);
if (!pw.success) {
  console.error(pw.error.issues[0]?.message);
  process.exit(2);
}
const handle = await openConfiguredDb(loadConfig(process.env, { serving: false }));
const user = await upsertAdmin(handle.db, values.email, values.password, values.name ?? 'Admin');
console.log(`Admin ${user.email} is ready.`);
await handle.close();
