/**
 * How fast the brand's browse page draws 1,000 opportunity cards: a real server with 1,000 extra
 * opportunities, the system Chromium (Playwright), the page opened 5 times; reports the median
 * time from navigation start until every card is in the DOM and the next frame is drawn, the part of
 * it after GET /api/opportunities arrived (the render itself), and the main thread's long tasks.
 * Usage: tsx scripts/render-timing.ts   (after `vite build`)
 */
import { chromium } from '@playwright/test';
import { BRAND, startPortal } from './lib/portal';

const COUNT = Number(process.env.CARDS ?? 1000);
const RUNS = 5;
const args = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const portal = await startPortal({ opportunities: COUNT });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args });
try {
  const cookie = await portal.login(BRAND);
  const [name, value] = cookie.split(';')[0].split('=');
  const results: { first: number; ready: number; render: number; longTasks: number; cards: number }[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await ctx.addCookies([{ name, value, url: portal.base }]);
    await ctx.addInitScript(() => {
      const w = window as unknown as { __long: number; __first: number };
      w.__long = 0;
      w.__first = 0;
      const mo = new MutationObserver(() => {
        if (document.querySelector('[data-testid="opportunity-card"]')) {
          w.__first = performance.now();
          mo.disconnect();
        }
      });
      mo.observe(document, { childList: true, subtree: true });
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long += e.duration;
      }).observe({ type: 'longtask', buffered: true });
    });
    const page = await ctx.newPage();
    await page.goto(`${portal.base}/brand/opportunities`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="opportunity-card"]').length >= n, COUNT, {
      timeout: 60_000,
      polling: 'raf',
    });
    // the time of the next frame after the cards are in the DOM, and when the list's data arrived
    const { readyMs, dataMs } = await page.evaluate(async () => {
      const readyMs = await new Promise<number>((r) => requestAnimationFrame(() => setTimeout(() => r(performance.now()))));
      const data = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/api/opportunities')) as PerformanceResourceTiming;
      return { readyMs, dataMs: data.responseEnd };
    });
    const cards = await page.locator('[data-testid="opportunity-card"]').count();
    const { longTasks, first } = await page.evaluate(() => {
      const w = window as unknown as { __long: number; __first: number };
      return { longTasks: w.__long, first: w.__first };
    });
    // the first run warms the server and the disk cache
    if (run > 0) results.push({ first, ready: readyMs, render: readyMs - dataMs, longTasks, cards });
    await ctx.close();
  }
  console.log(`cards on the page: ${results[0].cards}`);
  console.log(`first card in the DOM (median of ${RUNS}): ${median(results.map((r) => r.first)).toFixed(0)} ms after navigation start`);
  console.log(`all cards rendered (median of ${RUNS}): ${median(results.map((r) => r.ready)).toFixed(0)} ms after navigation start`);
  console.log(`of which after the list's data arrived (median): ${median(results.map((r) => r.render)).toFixed(0)} ms`);
  console.log(`long tasks until then (median): ${median(results.map((r) => r.longTasks)).toFixed(0)} ms`);
  console.log(`runs: ${results.map((r) => r.ready.toFixed(0)).join(', ')} ms`);
} finally {
  await browser.close();
  await portal.stop();
}
