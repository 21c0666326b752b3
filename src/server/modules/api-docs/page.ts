import type { Json } from './openapi';

/**
 * GET /api/docs: the OpenAPI document drawn as one self-contained HTML page, on the server. No
 * script and nothing fetched from elsewhere (the app's Content-Security-Policy allows neither): a
 * table of contents, every operation with its parameters, bodies, answers and examples, and every
 * named schema, linked where it is used.
 */

const esc = (text: unknown) =>
  String(text).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** One line of the little Markdown the descriptions use: `code`, **bold**, *emphasis*. */
const inline = (line: string) =>
  esc(line)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');

/** The descriptions' Markdown: inline marks, "- " lists and paragraphs. */
function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((block) => {
      const lines = block.split('\n');
      if (lines.every((l) => l.startsWith('- ')))
        return `<ul>${lines.map((l) => `<li>${inline(l.slice(2))}</li>`).join('')}</ul>`;
      return `<p>${inline(block)}</p>`;
    })
    .join('');
}

const refName = (ref: string) => ref.replace('#/components/schemas/', '');
const schemaLink = (name: string) => `<a href="#schema-${esc(name)}"><code>${esc(name)}</code></a>`;
const asList = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** A short name of a schema's type: `string`, `User[]`, `integer | null`… */
function typeOf(s: Json): string {
  if (typeof s.$ref === 'string') return schemaLink(refName(s.$ref));
  if (s.const !== undefined) return `<code>${esc(JSON.stringify(s.const))}</code>`;
  const union = asList(s.anyOf ?? s.oneOf);
  if (union.length) return union.map(typeOf).join(' | ');
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  const named = types.map((t) => {
    if (t === 'array' && s.items) {
      const item = typeOf(s.items as Json);
      return item.includes(' | ') ? `(${item})[]` : `${item}[]`;
    }
    if (t === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) {
      return `object of ${typeOf(s.additionalProperties as Json) || 'any'}`;
    }
    return esc(t);
  });
  return named.join(' | ') || 'any';
}

/** What a schema allows beyond its type, in words. */
function rulesOf(s: Json): string[] {
  // a value or null: the value's rules
  const nonNull = asList(s.anyOf).filter((m) => m.type !== 'null');
  if (nonNull.length === 1 && nonNull.length < asList(s.anyOf).length) return rulesOf(nonNull[0]);
  const rules: string[] = [];
  const list = (values: unknown[]) => values.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(', ');
  if (Array.isArray(s.enum)) rules.push(`one of ${list(s.enum)}`);
  const items = s.items as Json | undefined;
  if (items && Array.isArray(items.enum)) rules.push(`each one of ${list(items.enum)}`);
  if (s.format) rules.push(`format ${esc(s.format)}`);
  if (s.pattern) rules.push(`matches <code>${esc(s.pattern)}</code>`);
  const chars = (n: unknown) => `${esc(n)} character${n === 1 ? '' : 's'}`;
  if (s.minLength !== undefined) rules.push(`at least ${chars(s.minLength)}`);
  if (s.maxLength !== undefined) rules.push(`at most ${chars(s.maxLength)}`);
  if (s.minimum !== undefined) rules.push(`≥ ${esc(s.minimum)}`);
  if (s.maximum !== undefined) rules.push(`≤ ${esc(s.maximum)}`);
  const count = (n: unknown) => `${esc(n)} item${n === 1 ? '' : 's'}`;
  if (s.minItems !== undefined) rules.push(`at least ${count(s.minItems)}`);
  if (s.maxItems !== undefined) rules.push(`at most ${count(s.maxItems)}`);
  return rules;
}

/** An inline (not named) object a row leads into. */
function innerObject(s: Json): Json | null {
  if (s.$ref) return null;
  if (s.type === 'object' && s.properties) return s;
  const items = s.items as Json | undefined;
  if (s.type === 'array' && items && items.type === 'object' && items.properties) return items;
  const members = asList(s.anyOf).filter((m) => m.type !== 'null');
  if (members.length === 1 && members[0].type === 'object' && members[0].properties) return members[0];
  return null;
}

/** An object's members as table rows; inline objects within are listed under `parent.member`. */
function rows(s: Json, prefix = ''): string {
  const properties = (s.properties ?? {}) as Record<string, Json>;
  const required = new Set(asList(s.required) as unknown as string[]);
  return Object.entries(properties)
    .map(([name, p]) => {
      const inner = innerObject(p);
      const rules = rulesOf(p);
      const about = [
        p.description ? markdown(String(p.description)) : '',
        rules.length ? `<p class="rules">${rules.join('; ')}</p>` : '',
      ].join('');
      const row = `<tr><td><code>${esc(prefix + name)}</code>${required.has(name) ? '' : ' <span class="opt">optional</span>'}</td><td>${typeOf(p)}</td><td>${about}</td></tr>`;
      const path = `${prefix}${name}${p.type === 'array' ? '[]' : ''}.`;
      return row + (inner ? rows(inner, path) : '');
    })
    .join('');
}

/** A schema drawn as a table of members (an object), one table per choice (a union), or its type. */
function schemaBlock(s: Json): string {
  // a choice that is itself a union of one (a schema kept open for more shapes) is that one shape
  const choices = asList(s.anyOf ?? s.oneOf).map((c) => {
    const only = asList(c.anyOf);
    return only.length === 1 ? { ...only[0], description: c.description ?? only[0].description } : c;
  });
  if (choices.length > 1 && choices.every((c) => c.type === 'object' && c.properties)) {
    const drawn = choices.map(
      ({ description, ...c }, i) =>
        `<div class="choice"><p class="choice-name">${i + 1}.${description ? ` ${esc(description)}` : ''}</p>${schemaBlock(c)}</div>`,
    );
    return `<p>One of:</p>${drawn.join('')}`;
  }
  const description = s.description ? markdown(String(s.description)) : '';
  if (s.type === 'object' && s.properties && Object.keys(s.properties as Json).length) {
    return `${description}<table class="fields"><thead><tr><th class="w-name">member</th><th class="w-type">type</th><th>about</th></tr></thead><tbody>${rows(s)}</tbody></table>`;
  }
  if (s.type === 'object' && !s.properties && !s.additionalProperties) return `${description}<p>An empty object.</p>`;
  const rules = rulesOf(s);
  return `${description}<p>${typeOf(s)}${rules.length ? ` (${rules.join('; ')})` : ''}</p>`;
}

const example = (value: unknown, title = 'Example') =>
  `<details class="example"><summary>${esc(title)}</summary><pre><code>${esc(JSON.stringify(value, null, 2))}</code></pre></details>`;

function parametersBlock(op: Json): string {
  const parameters = asList(op.parameters);
  if (!parameters.length) return '';
  const body = parameters
    .map((p) => {
      const schema = (p.schema ?? {}) as Json;
      const rules = rulesOf(schema);
      const about = [
        p.description ? markdown(String(p.description)) : '',
        rules.length ? `<p class="rules">${rules.join('; ')}</p>` : '',
      ].join('');
      return `<tr><td><code>${esc(p.name)}</code>${p.required ? '' : ' <span class="opt">optional</span>'}</td><td>${esc(p.in)}</td><td>${typeOf(schema)}</td><td>${about}</td></tr>`;
    })
    .join('');
  return `<h4>Parameters</h4><table class="fields"><thead><tr><th class="w-name">name</th><th class="w-in">in</th><th class="w-type">type</th><th>about</th></tr></thead><tbody>${body}</tbody></table>`;
}

function contentBlock(content: Json): string {
  return Object.entries(content)
    .map(([type, media]) => {
      const m = media as Json;
      const schema = (m.schema ?? {}) as Json;
      const examples = Object.entries((m.examples ?? {}) as Record<string, Json>).map(([name, e]) =>
        example(e.value, name === 'example' ? 'Example' : `Example: ${name}`),
      );
      if (m.example !== undefined) examples.push(example(m.example));
      const drawn = type === 'application/json' || type === 'multipart/form-data' ? schemaBlock(schema) : '';
      return `<div class="media"><p class="media-type"><code>${esc(type)}</code></p>${drawn}${examples.join('')}</div>`;
    })
    .join('');
}

function requestBlock(op: Json): string {
  const body = op.requestBody as Json | undefined;
  if (!body) return '';
  const description = body.description ? markdown(String(body.description)) : '';
  return `<h4>Request body${body.required ? '' : ' <span class="opt">optional</span>'}</h4>${description}${contentBlock((body.content ?? {}) as Json)}`;
}

function responsesBlock(op: Json): string {
  const items = Object.entries((op.responses ?? {}) as Record<string, Json>).map(([status, r]) => {
    const headers = Object.entries((r.headers ?? {}) as Record<string, Json>)
      .map(
        ([name, h]) =>
          `<li><code>${esc(name)}</code>: ${markdown(String(h.description ?? '')).replace(/^<p>|<\/p>$/g, '')}</li>`,
      )
      .join('');
    const content = r.content as Json | undefined;
    // refusals share one shape: link it instead of drawing it under every route
    const plainError =
      content &&
      Object.keys(content).length === 1 &&
      ((content['application/json'] as Json | undefined)?.schema as Json | undefined)?.$ref ===
        '#/components/schemas/Refusal';
    const body = plainError ? ` ${schemaLink('Refusal')}` : '';
    const kind = Number(status) >= 400 ? 'refusal' : 'success';
    return `<li class="${kind}"><span class="status">${esc(status)}</span> ${markdown(String(r.description ?? '')).replace(/^<p>|<\/p>$/g, '')}${body}${headers ? `<ul class="headers">${headers}</ul>` : ''}${content && !plainError ? contentBlock(content) : ''}</li>`;
  });
  return `<h4>Answers</h4><ul class="responses">${items.join('')}</ul>`;
}

function operationBlock(path: string, method: string, op: Json): string {
  const badges = [
    `<span class="badge access">${esc(op['x-access'])}</span>`,
    op['x-spec'] ? '<span class="badge spec">spec</span>' : '',
    op.deprecated ? '<span class="badge deprecated">deprecated</span>' : '',
  ].join('');
  return `<article class="operation" id="${esc(op.operationId)}">
<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code> ${badges}</h3>
<p class="summary">${inline(String(op.summary))}</p>${op.description ? markdown(String(op.description)) : ''}
${parametersBlock(op)}${requestBlock(op)}${responsesBlock(op)}
</article>`;
}

const STYLE = `
:root{color-scheme:light;--ink:#1c2430;--muted:#5b6676;--line:#dde2ea;--soft:#f5f7fa;--accent:#2f5bd3}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
a{color:var(--accent)}code,pre{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.layout{display:grid;grid-template-columns:minmax(18rem,25rem) 1fr;min-height:100vh}
nav{border-right:1px solid var(--line);padding:1.25rem;background:var(--soft);position:sticky;top:0;height:100vh;overflow:auto}
nav h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.05em;color:var(--muted);margin:1.2rem 0 .3rem}
nav ul{list-style:none;margin:0;padding:0}nav li{margin:.2rem 0;font-size:12.5px}nav li a{display:flex;gap:.4rem;align-items:baseline;overflow-wrap:anywhere}nav a{text-decoration:none;color:var(--ink)}nav a:hover{color:var(--accent)}nav .method{min-width:3.6rem;flex:none;font-size:10.5px}
main{padding:1.5rem 2.5rem 4rem;max-width:72rem}h1{margin:0 0 .5rem}h2.tag{margin-top:3rem;padding-bottom:.3rem;border-bottom:2px solid var(--line)}
.operation{border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:1.25rem 0}
.operation h3{margin:0;font-size:1rem;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}.summary{font-weight:600;margin:.5rem 0}
h4{margin:1rem 0 .4rem;font-size:.9rem}
.method{display:inline-block;min-width:4.2rem;text-align:center;border-radius:4px;padding:.1rem .4rem;color:#fff;font:700 12px ui-monospace,monospace}
.get{background:#2e7d4f}.post{background:#2f5bd3}.put{background:#9a5b00}.patch{background:#7a4bc4}.delete{background:#b3261e}
.badge{font-size:11px;font-weight:600;border-radius:999px;padding:.05rem .5rem;border:1px solid var(--line);color:var(--muted)}.badge.spec{border-color:#2e7d4f;color:#2e7d4f}.badge.deprecated{border-color:#9a5b00;color:#9a5b00}
table.fields{border-collapse:collapse;width:100%;margin:.3rem 0;table-layout:fixed}.fields .w-name{width:28%}.fields .w-in{width:9%}.fields .w-type{width:20%}.fields td{overflow-wrap:anywhere}.fields th,.fields td{border-bottom:1px solid var(--line);padding:.35rem .5rem;text-align:left;vertical-align:top}section.schema h3 code{font-size:1rem}
.fields th{font-size:12px;color:var(--muted);font-weight:600}.fields td p{margin:0}
.opt{font-size:11px;color:var(--muted)}.rules{color:var(--muted);font-size:13px}
ul.responses{list-style:none;padding:0;margin:0}ul.responses>li{margin:.4rem 0}.status{display:inline-block;min-width:2.6rem;font:700 13px ui-monospace,monospace}
.success .status{color:#2e7d4f}.refusal .status{color:#b3261e}ul.headers{margin:.2rem 0 .2rem 1.5rem;font-size:13px}
.media{margin:.4rem 0 .6rem}.media-type{margin:.2rem 0;color:var(--muted)}
details.example{margin:.4rem 0}details.example summary{cursor:pointer;color:var(--accent);font-size:13px}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.75rem;overflow:auto;max-height:28rem}
.choice{border-left:3px solid var(--line);padding-left:.75rem;margin:.5rem 0}.choice-name{font-weight:600;margin:.2rem 0}
section.schema{border-top:1px solid var(--line);padding-top:.5rem;margin-top:1.5rem}
@media (max-width:56rem){.layout{display:block}nav{position:static;height:auto;border-right:0;border-bottom:1px solid var(--line)}main{padding:1rem}}
`;

/** The reference page of an OpenAPI document made by @fastify/swagger (openapi.ts). */
export function referencePage(doc: Json): string {
  const info = doc.info as Json;
  const tags = asList(doc.tags);
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const byTag = tags
    .map((t) => ({ tag: t, ops: operations.filter((o) => asList(o.op.tags)[0] === (t.name as unknown)) }))
    .filter((g) => g.ops.length);
  const schemas = ((doc.components as Json).schemas ?? {}) as Record<string, Json>;

  const nav = byTag
    .map(
      ({ tag, ops }) =>
        `<h2><a href="#tag-${esc(tag.name)}">${esc(tag.name)}</a></h2><ul>${ops
          .map(
            ({ path, method, op }) =>
              `<li><a href="#${esc(op.operationId)}"><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span><span>${esc(path)}</span></a></li>`,
          )
          .join('')}</ul>`,
    )
    .join('');
  const sections = byTag
    .map(
      ({ tag, ops }) =>
        `<h2 class="tag" id="tag-${esc(tag.name)}">${esc(tag.name)}</h2>${markdown(String(tag.description ?? ''))}${ops.map(({ path, method, op }) => operationBlock(path, method, op)).join('\n')}`,
    )
    .join('\n');
  const schemaSections = Object.entries(schemas)
    .map(
      ([name, s]) =>
        `<section class="schema" id="schema-${esc(name)}"><h3><code>${esc(name)}</code></h3>${schemaBlock(s)}</section>`,
    )
    .join('\n');

  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(info.title)} reference</title><style>${STYLE}</style></head>
<body><div class="layout"><nav aria-label="Operations"><p><strong>${esc(info.title)}</strong></p><ul><li><a href="#overview">Overview</a></li><li><a href="#schemas">Schemas</a></li></ul>${nav}</nav>
<main><h1 id="overview">${esc(info.title)}</h1><p>OpenAPI ${esc(doc.openapi)} document: <a href="/api/openapi.json">/api/openapi.json</a></p>${markdown(String(info.description ?? ''))}
${sections}
<h2 class="tag" id="schemas">Schemas</h2>${schemaSections}
</main></div></body></html>`;
}
