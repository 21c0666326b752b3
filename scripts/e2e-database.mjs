// Makes the empty PostgreSQL database the second e2e server runs on (playwright.config.ts, the
// `postgres` project): dropped and created afresh for every run, on the server of
// TEST_DATABASE_URL (loopback only). Prints nothing; fails loudly.
import process from 'node:process';
import { URL } from 'node:url';
import pg from 'pg';

const base = process.env.TEST_DATABASE_URL;
const name = process.argv[2];
if (!base || !/^[a-z0-9_]+$/.test(name ?? '')) throw new Error('usage: TEST_DATABASE_URL=… node scripts/e2e-database.mjs <name>');
const url = new URL(base);
if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) throw new Error(`e2e databases are made on loopback only, not ${url.hostname}`);
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
