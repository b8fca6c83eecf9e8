// A small Markdown subset for page descriptions written by hosts (spec: BookingPage `description` is Markdown).
// It parses to a tree of plain strings that React renders as text, so HTML in the source can never become markup;
// links keep only http(s) and mailto targets. Supported: paragraphs (a line break inside one is kept, as in GitHub
// comments), headings, bullet and numbered lists, fenced code, **bold**, *italic*, `code`, [links](https://...) and
// bare http(s) URLs. Everything else stays literal text.

export type Inline =
  | { type: 'text'; text: string }
  | { type: 'break' }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'em'; children: Inline[] }
  | { type: 'link'; href: string; children: Inline[] };

export type Block =
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'heading'; level: number; children: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { type: 'code'; text: string };

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const NUMBERED = /^ {0,3}(\d{1,9})[.)][ \t]+(.*)$/;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const SAFE_HREF = /^(?:https?:\/\/[^\s/?#]+|mailto:[^\s@]+@)[^\s]*$/i;
const BARE_URL = /^https?:\/\/[^\s<>"]+/i;

/** True for the link targets the renderer may emit: http(s) URLs with a host and mailto addresses. */
export function isSafeHref(href: string): boolean {
  return SAFE_HREF.test(href) && ![...href].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; start: number; items: string[][] } | null = null;

  const flush = () => {
    if (paragraph.length > 0) blocks.push({ type: 'paragraph', children: parseInline(paragraph.join('\n')) });
    paragraph = [];
    if (list) {
      const items = list.items.map((item) => parseInline(item.join('\n')));
      blocks.push({ type: 'list', ordered: list.ordered, start: list.start, items });
    }
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1] as string;
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] as string).trimStart().startsWith(marker); i++) {
        code.push(lines[i] as string);
      }
      blocks.push({ type: 'code', text: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ type: 'heading', level: (heading[1] as string).length, children: parseInline(heading[2] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = numbered !== null;
      if (paragraph.length > 0 || (list && list.ordered !== ordered)) flush();
      if (!list) list = { ordered, start: numbered ? Number(numbered[1]) : 1, items: [] };
      const itemText = bullet ? bullet[1] : numbered?.[2];
      list.items.push([(itemText ?? '').trim()]);
      continue;
    }
    // A line after a list item without a blank line continues that item.
    const lastItem = list?.items.at(-1);
    if (lastItem) lastItem.push(line.trim());
    else paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flushText = () => {
    if (buffer !== '') out.push({ type: 'text', text: buffer });
    buffer = '';
  };

  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    const next = text[i + 1];

    if (ch === '\\' && next !== undefined && ASCII_PUNCTUATION.test(next)) {
      buffer += next;
      i += 2;
      continue;
    }
    if (ch === '\n') {
      buffer = buffer.trimEnd();
      flushText();
      out.push({ type: 'break' });
      i++;
      continue;
    }
    if (ch === '`') {
      const ticks = runLength(text, i, '`');
      const close = findTicks(text, i + ticks, ticks);
      if (close !== -1) {
        flushText();
        const code = text.slice(i + ticks, close).replace(/\n/g, ' ');
        const trimmed = code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
        out.push({ type: 'code', text: trimmed });
        i = close + ticks;
        continue;
      }
      buffer += '`'.repeat(ticks);
      i += ticks;
      continue;
    }
    if (ch === '*' || ch === '_') {
      const size = next === ch ? 2 : 1;
      const close = canOpen(text, i, size) ? findCloser(text, i + size, ch, size) : -1;
      if (close !== -1) {
        flushText();
        const children = parseInline(text.slice(i + size, close));
        out.push(size === 2 ? { type: 'strong', children } : { type: 'em', children });
        i = close + size;
        continue;
      }
      const run = runLength(text, i, ch);
      buffer += ch.repeat(run);
      i += run;
      continue;
    }
    if (ch === '[') {
      const link = parseLink(text, i);
      if (link) {
        flushText();
        const children = parseInline(link.label);
        if (isSafeHref(link.href)) out.push({ type: 'link', href: link.href, children });
        else out.push(...children);
        i = link.end;
        continue;
      }
    }
    if (ch === '<') {
      const auto = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(text.slice(i));
      if (auto && isSafeHref(auto[1] as string)) {
        flushText();
        out.push({ type: 'link', href: auto[1] as string, children: [{ type: 'text', text: auto[1] as string }] });
        i += auto[0].length;
        continue;
      }
    }
    if ((ch === 'h' || ch === 'H') && (i === 0 || !/[\w/:.]/.test(text[i - 1] as string))) {
      const bare = BARE_URL.exec(text.slice(i));
      if (bare) {
        // Trailing punctuation ends the sentence rather than the URL ("see https://example.com.").
        const url = (bare[0] as string).replace(/[.,:;!?'")\]*_]+$/, '');
        if (isSafeHref(url)) {
          flushText();
          out.push({ type: 'link', href: url, children: [{ type: 'text', text: url }] });
          i += url.length;
          continue;
        }
      }
    }
    buffer += ch;
    i++;
  }
  flushText();
  return out;
}

function runLength(text: string, from: number, ch: string): number {
  let n = 0;
  while (text[from + n] === ch) n++;
  return n;
}

/** Start of the next run of exactly `ticks` backticks at or after `from`, or -1. */
function findTicks(text: string, from: number, ticks: number): number {
  for (let j = from; j < text.length; ) {
    if (text[j] !== '`') {
      j++;
      continue;
    }
    const run = runLength(text, j, '`');
    if (run === ticks) return j;
    j += run;
  }
  return -1;
}

/** An opening delimiter is followed by a non-space; `_` must also start a word (snake_case stays literal). */
function canOpen(text: string, at: number, size: number): boolean {
  const after = text[at + size];
  if (after === undefined || /\s/.test(after)) return false;
  return text[at] !== '_' || at === 0 || !/[\p{L}\p{N}]/u.test(text[at - 1] as string);
}

/** The closing run of exactly `size` delimiters: after a non-space, and for `_` at a word end. Code spans are skipped. */
function findCloser(text: string, from: number, ch: string, size: number): number {
  for (let j = from; j < text.length; ) {
    const c = text[j];
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === '`') {
      const ticks = runLength(text, j, '`');
      const close = findTicks(text, j + ticks, ticks);
      j = close === -1 ? j + ticks : close + ticks;
      continue;
    }
    if (c !== ch) {
      j++;
      continue;
    }
    const run = runLength(text, j, ch);
    const before = text[j - 1] as string;
    const after = text[j + run];
    const wordEnd = ch !== '_' || after === undefined || !/[\p{L}\p{N}]/u.test(after);
    if (j > from && !/\s/.test(before) && wordEnd && (run === size || run === 3)) {
      // A run of three closes an emphasis inside a strong one (or the reverse): this closer is the outer one's.
      if (run === 3) return size === 1 ? j + 2 : j + 1;
      return j;
    }
    j += run;
  }
  return -1;
}

/** `[label](href)` starting at `at`: brackets may nest in the label; the target has no spaces. */
function parseLink(text: string, at: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let j = at;
  for (; j < text.length; j++) {
    const c = text[j];
    if (c === '\\') j++;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) break;
  }
  if (depth !== 0 || text[j + 1] !== '(') return null;
  const target = /^\(\s*(<[^<>\n]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)\s*(?:"[^"]*"\s*)?\)/.exec(text.slice(j + 1));
  if (!target) return null;
  const href = (target[1] as string).replace(/^<|>$/g, '');
  return { label: text.slice(at + 1, j), href, end: j + 1 + target[0].length };
}
