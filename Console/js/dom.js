// Building the page without markup strings: every text (model output, tool results, names) becomes a text node.

/** An element: h('p', {class: 'x'}, 'text', child). Attributes starting with "on" are listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** An SVG element (namespaced). */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces the children of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A table with a caption, header cells and rows of cells (strings, numbers or nodes), in a scrolling wrapper. */
export function table(caption, headers, rows, attrs = {}) {
  return h('div', { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': caption },
    h('table', attrs,
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, headers.map((name) => h('th', { scope: 'col' }, name)))),
      h('tbody', {}, rows.length ? rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell))))
        : h('tr', {}, h('td', { colspan: headers.length, class: 'muted' }, 'Nothing yet.')))));
}

/** US dollars with enough digits for small amounts. */
export function usd(value) {
  if (value === null || value === undefined) return '–';
  if (value === 0) return '$0';
  return '$' + (value < 0.01 ? value.toFixed(6) : value.toFixed(4));
}

/** A compact count (1,234). */
export function count(n) {
  return (n ?? 0).toLocaleString('en-US');
}

/** JSON as indented text (for arguments and results shown as text). */
export function pretty(value) {
  try { return JSON.stringify(value, null, 2); } catch { return String(value); }
}
