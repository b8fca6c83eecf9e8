// The hosted page's Markdown subset (lib/hosted/markdown.ts) and its React renderer: what hosts can format, and
// that nothing they write becomes HTML or a script link.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Markdown } from '../../app/[username]/[slug]/markdown';
import { isSafeHref, parseInline, parseMarkdown } from '../../lib/hosted/markdown';

const html = (source: string) => renderToStaticMarkup(createElement(Markdown, { source }));
const text = (value: string) => ({ type: 'text', text: value });

describe('markdown inline', () => {
  test('bold, italic and code', () => {
    assert.deepEqual(parseInline('**Hello** *you* `x < y`'), [
      { type: 'strong', children: [text('Hello')] },
      text(' '),
      { type: 'em', children: [text('you')] },
      text(' '),
      { type: 'code', text: 'x < y' },
    ]);
    assert.deepEqual(parseInline('__b__ _i_'), [
      { type: 'strong', children: [text('b')] },
      text(' '),
      { type: 'em', children: [text('i')] },
    ]);
  });

  test('nesting and triple delimiters', () => {
    assert.deepEqual(parseInline('*a **b** c*'), [
      { type: 'em', children: [text('a '), { type: 'strong', children: [text('b')] }, text(' c')] },
    ]);
    assert.deepEqual(parseInline('***both***'), [
      { type: 'strong', children: [{ type: 'em', children: [text('both')] }] },
    ]);
  });

  test('unmatched or spaced delimiters and snake_case stay literal', () => {
    assert.deepEqual(parseInline('2 * 3 * 4'), [text('2 * 3 * 4')]);
    assert.deepEqual(parseInline('**open'), [text('**open')]);
    assert.deepEqual(parseInline('snake_case_name'), [text('snake_case_name')]);
    assert.deepEqual(parseInline('`unclosed'), [text('`unclosed')]);
    assert.deepEqual(parseInline('\\*not italic\\*'), [text('*not italic*')]);
  });

  test('code spans keep their content literal, double backticks may hold one', () => {
    assert.deepEqual(parseInline('`**x**`'), [{ type: 'code', text: '**x**' }]);
    assert.deepEqual(parseInline('`` a`b ``'), [{ type: 'code', text: 'a`b' }]);
  });

  test('links with http, https and mailto targets', () => {
    assert.deepEqual(parseInline('[site](https://example.com/a?b=1) and [mail](mailto:ada@example.com)'), [
      { type: 'link', href: 'https://example.com/a?b=1', children: [text('site')] },
      text(' and '),
      { type: 'link', href: 'mailto:ada@example.com', children: [text('mail')] },
    ]);
    assert.deepEqual(parseInline('[**b**](http://x.org "title")'), [
      { type: 'link', href: 'http://x.org', children: [{ type: 'strong', children: [text('b')] }] },
    ]);
  });

  test('other link targets keep only the label', () => {
    for (const href of [
      'javascript:alert(1)',
      'JAVASCRIPT:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      '/relative',
      '//evil.example',
      'https:evil',
      '&#106;avascript:alert(1)',
    ]) {
      assert.deepEqual(parseInline(`[click](${href})`), [text('click')], href);
    }
  });

  test('bare and angle-bracket URLs become links, without trailing punctuation', () => {
    assert.deepEqual(parseInline('See https://example.com/x.'), [
      text('See '),
      { type: 'link', href: 'https://example.com/x', children: [text('https://example.com/x')] },
      text('.'),
    ]);
    assert.deepEqual(parseInline('<mailto:a@b.co>'), [
      { type: 'link', href: 'mailto:a@b.co', children: [text('mailto:a@b.co')] },
    ]);
    assert.deepEqual(parseInline('<javascript:alert(1)>'), [text('<javascript:alert(1)>')]);
  });

  test('isSafeHref', () => {
    assert.equal(isSafeHref('https://example.com'), true);
    assert.equal(isSafeHref('mailto:a@b.co'), true);
    assert.equal(isSafeHref('https://exa mple.com'), false);
    assert.equal(isSafeHref('https://example.com/\u0000'), false);
    assert.equal(isSafeHref('mailto:nobody'), false);
    assert.equal(isSafeHref('ftp://example.com'), false);
  });
});

describe('markdown blocks', () => {
  test('paragraphs split on blank lines, line breaks kept inside', () => {
    assert.deepEqual(parseMarkdown('one\ntwo\n\nthree'), [
      { type: 'paragraph', children: [text('one'), { type: 'break' }, text('two')] },
      { type: 'paragraph', children: [text('three')] },
    ]);
    assert.deepEqual(parseMarkdown('a\r\n\r\nb'), [
      { type: 'paragraph', children: [text('a')] },
      { type: 'paragraph', children: [text('b')] },
    ]);
    assert.deepEqual(parseMarkdown(''), []);
    assert.deepEqual(parseMarkdown('\n \n'), []);
  });

  test('bullet and numbered lists, with continuation lines', () => {
    assert.deepEqual(parseMarkdown('Agenda:\n- one\n* **two**\n  more\n\n3. x\n4) y'), [
      { type: 'paragraph', children: [text('Agenda:')] },
      {
        type: 'list',
        ordered: false,
        start: 1,
        items: [[text('one')], [{ type: 'strong', children: [text('two')] }, { type: 'break' }, text('more')]],
      },
      { type: 'list', ordered: true, start: 3, items: [[text('x')], [text('y')]] },
    ]);
  });

  test('headings and fenced code', () => {
    assert.deepEqual(parseMarkdown('## Before we meet ##\n```\n<b>raw</b>\n**x**\n```\nafter'), [
      { type: 'heading', level: 2, children: [text('Before we meet')] },
      { type: 'code', text: '<b>raw</b>\n**x**' },
      { type: 'paragraph', children: [text('after')] },
    ]);
    assert.deepEqual(parseMarkdown('#hashtag'), [{ type: 'paragraph', children: [text('#hashtag')] }]);
  });
});

describe('markdown rendering', () => {
  test('renders the subset as HTML elements', () => {
    assert.equal(html('**Hello**'), '<div><p><strong>Hello</strong></p></div>');
    assert.equal(
      html('# Title\n\n- a\n- [b](https://b.org)\n\n2. x'),
      '<div><h3>Title</h3><ul><li>a</li><li><a href="https://b.org" rel="nofollow noopener noreferrer" target="_blank">b</a></li></ul><ol start="2"><li>x</li></ol></div>',
    );
    assert.equal(html('a\nb'), '<div><p>a<br/>b</p></div>');
  });

  test('HTML in the source is text, never markup', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> **<b>x</b>** `<i>`');
    assert.doesNotMatch(out, /<script|<img|<b>|<i>/);
    assert.match(out, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
    assert.match(out, /<strong>&lt;b&gt;x&lt;\/b&gt;<\/strong>/);
    assert.match(out, /<code>&lt;i&gt;<\/code>/);
  });

  test('no javascript: or data: URL reaches an attribute, and quotes cannot break out of one', () => {
    const out = html('[a](javascript:alert(1)) [b](data:text/html,x) [c](https://x.org/"onmouseover="alert(1))');
    assert.doesNotMatch(out, /href="(?:javascript|data):/i);
    // The quote is escaped inside the attribute, so no second attribute starts.
    assert.doesNotMatch(out, /onmouseover="/);
    for (const tag of out.match(/<a [^>]*>/g) ?? []) {
      assert.match(tag, /^<a href="https:\/\/[^"]*" rel="nofollow noopener noreferrer" target="_blank">$/);
    }
  });
});
