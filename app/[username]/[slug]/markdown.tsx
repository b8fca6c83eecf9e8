import type { ReactNode } from 'react';
import { type Block, type Inline, parseMarkdown } from '@/lib/hosted/markdown';

/** A host's Markdown (lib/hosted/markdown.ts) as React elements: every string is a text node, never HTML. */
export function Markdown({ source, className }: { source: string; className?: string }) {
  return <div className={className}>{parseMarkdown(source).map(renderBlock)}</div>;
}

// The trees are rendered once and never reordered, so a child's position is a stable key.
function renderBlock(block: Block, index: number): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={index}>{block.children.map(renderInline)}</p>;
    case 'heading': {
      // The page title is the h1 and the booking sections are h2, so the host's headings start below them.
      const Tag = (['h3', 'h4', 'h5', 'h6'] as const)[Math.min(block.level, 4) - 1] ?? 'h6';
      return <Tag key={index}>{block.children.map(renderInline)}</Tag>;
    }
    case 'list': {
      const items = block.items.map(renderItem);
      return block.ordered ? (
        <ol key={index} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={index}>{items}</ul>
      );
    }
    case 'code':
      return (
        <pre key={index}>
          <code>{block.text}</code>
        </pre>
      );
  }
}

function renderItem(item: Inline[], index: number): ReactNode {
  return <li key={index}>{item.map(renderInline)}</li>;
}

function renderInline(node: Inline, index: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text;
    case 'break':
      return <br key={index} />;
    case 'code':
      return <code key={index}>{node.text}</code>;
    case 'strong':
      return <strong key={index}>{node.children.map(renderInline)}</strong>;
    case 'em':
      return <em key={index}>{node.children.map(renderInline)}</em>;
    case 'link':
      return (
        <a key={index} href={node.href} rel="nofollow noopener noreferrer" target="_blank">
          {node.children.map(renderInline)}
        </a>
      );
  }
}
