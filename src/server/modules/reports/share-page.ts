import type { reports } from '../../db/schema';
import { REPORT_COLUMN_LABELS } from '../../../shared/reports';
import type { PlacementProof } from './proof';
import { cell, columnsOf, type Reader, type ReportLine } from './service';

type ReportRow = typeof reports.$inferSelect;

/**
 * The pages a share link and an unsubscribe link open: plain HTML made here, without the app's
 * scripts (nothing to sign in to, nothing to load). A white-label report's page names only the
 * agency: its title, logo, colour and footer; the word "Byline" appears nowhere in it.
 */

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const moment = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
  timeZoneName: 'short',
});

function page(o: { title: string; accent: string; header: string; body: string; footer: string }) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(o.title)}</title>
<style>
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;color:#18181b;background:#f4f4f5;line-height:1.5}
  main{max-width:1100px;margin:0 auto;padding:24px 16px}
  .card{background:#fff;border-radius:10px;padding:20px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
  h1{margin:0 0 4px;font-size:24px;color:${o.accent};overflow-wrap:anywhere}
  .muted{color:#52525b;font-size:14px}
  .scroll{overflow-x:auto;margin-top:16px}
  table{border-collapse:collapse;width:100%;min-width:640px;font-size:14px}
  th{background:${o.accent};color:#fff;text-align:left;padding:8px;white-space:nowrap}
  td{padding:8px;border-bottom:1px solid #e4e4e7;vertical-align:top;overflow-wrap:break-word;max-width:320px}
  a{color:${o.accent}}
  img.logo{max-height:56px;max-width:220px;display:block;margin-bottom:12px}
  footer{margin-top:16px;font-size:13px;color:#52525b;overflow-wrap:anywhere}
  .pass{color:#15803d}.warning{color:#a16207}.fail{color:#b91c1c}
  button{font:inherit;padding:8px 14px;border-radius:6px;border:0;background:${o.accent};color:#fff;cursor:pointer}
</style></head>
<body><main><div class="card">${o.header}${o.body}</div>${o.footer ? `<footer>${o.footer}</footer>` : ''}</main></body></html>`;
}

const DEFAULT_ACCENT = '#4338CA';

const linkOrText = (url: string | null) =>
  url && /^https?:\/\//i.test(url)
    ? `<a href="${esc(url)}" rel="noopener noreferrer nofollow">${esc(url)}</a>`
    : esc(url ?? '');

type ShareView =
  | { kind: 'gone' }
  | {
      kind: 'report';
      report: ReportRow;
      docs: { lines: ReportLine[]; scope: string; organisation: string };
      logo: Buffer | null;
      /** who the link's page is for: as the member who made the link may read it (service.ts `shareReader`) */
      reader: Reader;
    }
  | { kind: 'placement'; proof: PlacementProof };

export async function shareHtml(view: ShareView): Promise<string> {
  if (view.kind === 'gone') {
    return page({
      title: 'Link not available',
      accent: '#3f3f46',
      header: '<h1>This link is not available</h1>',
      body: '<p class="muted">It has expired or was revoked. Ask whoever sent it for a new one.</p>',
      footer: '',
    });
  }
  if (view.kind === 'placement') {
    const p = view.proof;
    const checks = p.checks
      .map(
        (c) =>
          `<tr><td>${esc(moment.format(c.checkedAt))}</td><td class="${c.result}">${c.result === 'pass' ? 'Live' : c.result === 'warning' ? 'Live, with a warning' : 'Failed'}</td><td>${c.httpStatus ?? ''}</td><td>${c.linkFound ? 'Found' : 'Not found'}</td><td>${esc(c.problems.join('; '))}</td></tr>`,
      )
      .join('');
    return page({
      title: `${p.outlet}: ${p.title}`,
      accent: DEFAULT_ACCENT,
      header: `<p class="muted">Proof of publication</p><h1>${esc(p.title)}</h1><p class="muted">${esc(p.outlet)}</p>`,
      body: `<p><strong>Live URL:</strong> ${p.liveUrl ? linkOrText(p.liveUrl) : p.publishedAt ? 'published without a live link' : 'not published yet'}<br>
<strong>Link status:</strong> ${esc(p.liveUrl || !p.publishedAt ? p.linkStatus : 'No link to check')}${p.publishedAt ? `<br><strong>Published:</strong> ${esc(day.format(p.publishedAt))}` : ''}${p.liveUrl && p.guaranteeEndsAt ? `<br><strong>Checked daily until:</strong> ${esc(day.format(p.guaranteeEndsAt))}` : ''}</p>
<h2 style="font-size:16px;margin:16px 0 0">Check history</h2>
${checks ? `<div class="scroll"><table><thead><tr><th>Checked</th><th>Result</th><th>HTTP</th><th>Link to the brand</th><th>Findings</th></tr></thead><tbody>${checks}</tbody></table></div>` : '<p class="muted">No check yet.</p>'}`,
      footer: 'Shared from Byline. The live article is checked automatically.',
    });
  }
  return reportPage(view.report, view.docs, view.logo, view.reader);
}

function reportPage(
  report: ReportRow,
  docs: { lines: ReportLine[]; scope: string; organisation: string },
  logoBytes: Buffer | null,
  reader: Reader,
) {
  const wl = report.whiteLabel;
  const columns = columnsOf(report, reader);
  // inline: the page loads nothing from anywhere (a PNG starts with 0x89, else it was checked as JPEG)
  const logo = logoBytes
    ? `data:${logoBytes[0] === 0x89 ? 'image/png' : 'image/jpeg'};base64,${logoBytes.toString('base64')}`
    : null;
  const rows = docs.lines
    .map(
      (l) =>
        `<tr>${columns.map((c) => `<td>${c === 'liveUrl' ? linkOrText(l.liveUrl) : esc(cell(l, c))}</td>`).join('')}</tr>`,
    )
    .join('');
  return page({
    title: report.name,
    accent: wl?.color ?? DEFAULT_ACCENT,
    header: `${logo ? `<img class="logo" src="${logo}" alt="${esc(docs.organisation)}">` : ''}<h1>${esc(report.name)}</h1><p class="muted">${esc(docs.scope)} · ${docs.lines.length} placement${docs.lines.length === 1 ? '' : 's'}</p>`,
    body: docs.lines.length
      ? `<div class="scroll"><table><thead><tr>${columns.map((c) => `<th>${esc(REPORT_COLUMN_LABELS[c])}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div>`
      : '<p class="muted">No placement matches this report.</p>',
    footer: wl ? esc(wl.footer ?? '') : `Shared by ${esc(docs.organisation)} from Byline.`,
  });
}

export function unsubscribeHtml(o: { state: 'ask' | 'done' | 'invalid'; email: string }): string {
  const body =
    o.state === 'ask'
      ? `<p>Stop sending this scheduled report to <strong>${esc(o.email)}</strong>?</p><form method="post"><button type="submit">Stop receiving it</button></form>`
      : o.state === 'done'
        ? `<p><strong>${esc(o.email)}</strong> will no longer receive this report.</p>`
        : '<p>This link is not valid. The report may have been deleted.</p>';
  return page({
    title: 'Scheduled report',
    accent: '#3f3f46',
    header: '<h1>Scheduled report</h1>',
    body,
    footer: '',
  });
}
