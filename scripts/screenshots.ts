/**
 * Screenshots of the portal's screens at 1280px and 390px, for a person to look at.
 * Usage: tsx scripts/screenshots.ts <baseUrl> <outDir> [route ...]  (signs in as the demo users)
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';

const [base = 'http://localhost:5000', out = 'screenshots', ...routes] = process.argv.slice(2);
const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
mkdirSync(out, { recursive: true });

const who = (route: string) =>
  route.startsWith('/admin') || route.startsWith('admin:')
    ? { email: 'admin@byline.test', password: 'byline-admin-demo' }
    : route.startsWith('anon:') || route === '/auth'
      ? null
      : { email: 'brand@byline.test', password: 'byline-brand-demo' };

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args });
for (const width of [1280, 390]) {
  for (const raw of routes) {
    const route = raw.replace(/^(admin|anon|brand):/, '');
    const ctx = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } });
    const page = await ctx.newPage();
    const login = who(raw);
    if (login) {
      const res = await page.request.post(`${base}/api/login`, { data: login, headers: { origin: base } });
      if (!res.ok()) throw new Error(`login failed ${res.status()}`);
    }
    await page.goto(base + route);
    await page.waitForTimeout(800);
    const name = `${raw.replace(/[^a-z0-9]+/gi, '_')}_${width}.png`;
    await page.screenshot({ path: `${out}/${name}`, fullPage: true });
    console.log(`${out}/${name}`);
    await ctx.close();
  }
}
await browser.close();
