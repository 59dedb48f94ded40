import type { CSSProperties, ReactNode } from 'react';
import { Anchor, Box, Table, Text } from '@mantine/core';
import type { NarrativeNode, NarrativeStyle, NarrativeTag } from './parse-cda.ts';

// Renders a section's narrative block from the whitelisted tree of parse-cda.ts: React elements only,
// no HTML strings, no attribute from the document other than the few the parser read and bounded.

type ElementNode = Extract<NarrativeNode, { kind: 'element' }>;

const INLINE_TAGS = new Set<NarrativeTag>(['content', 'sub', 'sup', 'br', 'linkHtml', 'footnoteRef', 'footnote', 'caption', 'renderMultiMedia']);

const isInline = (node: NarrativeNode): boolean => node.kind === 'text' || (INLINE_TAGS.has(node.tag) && node.children.every(isInline));

function styleOf(styles: NarrativeStyle[] | undefined): CSSProperties | undefined {
  if (!styles) return undefined;
  return {
    fontWeight: styles.includes('bold') ? 700 : undefined,
    fontStyle: styles.includes('italic') ? 'italic' : undefined,
    textDecoration: styles.includes('underline') ? 'underline' : undefined,
  };
}

/** Only an https address becomes a live link; anything else (javascript:, data:, http:, relative) is text. */
export function safeHttpsUrl(href: string | undefined): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href);
    return url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const textOf = (nodes: NarrativeNode[]): string => nodes.map((n) => (n.kind === 'text' ? n.text : textOf(n.children))).join('');

export function Narrative({ nodes }: { nodes: NarrativeNode[] }) {
  return <>{renderNodes(nodes, undefined)}</>;
}

function renderNodes(nodes: NarrativeNode[], parent: NarrativeTag | undefined): ReactNode[] {
  return nodes.map((node, index) => (node.kind === 'text' ? node.text : renderElement(node, parent, index)));
}

function renderElement(node: ElementNode, parent: NarrativeTag | undefined, key: number): ReactNode {
  const style = styleOf(node.styles);
  const inner = () => renderNodes(node.children, node.tag);
  switch (node.tag) {
    case 'paragraph':
      // <p> cannot hold block content (lists, tables): such a paragraph becomes a <div>.
      return (
        <Box key={key} component={node.children.every(isInline) ? 'p' : 'div'} style={style} my="xs">
          {inner()}
        </Box>
      );
    case 'content':
      return (
        <span key={key} style={style}>
          {inner()}
        </span>
      );
    case 'sub':
      return <sub key={key}>{inner()}</sub>;
    case 'sup':
      return <sup key={key}>{inner()}</sup>;
    case 'br':
      return <br key={key} />;
    case 'list': {
      const captions = node.children.filter((c) => c.kind === 'element' && c.tag === 'caption');
      const items = node.children.filter((c) => !(c.kind === 'element' && c.tag === 'caption'));
      const List = node.ordered ? 'ol' : 'ul';
      return (
        <Box key={key} my="xs">
          {captions.length > 0 && <Text fw={600}>{renderNodes(captions, 'list')}</Text>}
          <List style={style}>{renderNodes(items, 'list')}</List>
        </Box>
      );
    }
    case 'item':
      return (
        <li key={key} style={style}>
          {inner()}
        </li>
      );
    case 'table':
      return (
        <Box key={key} my="xs" style={{ overflowX: 'auto' }}>
          <Table withTableBorder withColumnBorders striped style={style}>
            {inner()}
          </Table>
        </Box>
      );
    case 'thead':
      return <Table.Thead key={key}>{inner()}</Table.Thead>;
    case 'tbody':
      return <Table.Tbody key={key}>{inner()}</Table.Tbody>;
    case 'tfoot':
      return <Table.Tfoot key={key}>{inner()}</Table.Tfoot>;
    case 'tr':
      return (
        <Table.Tr key={key} style={style}>
          {inner()}
        </Table.Tr>
      );
    case 'th':
      return (
        <Table.Th key={key} style={style} colSpan={node.colSpan} rowSpan={node.rowSpan}>
          {inner()}
        </Table.Th>
      );
    case 'td':
      return (
        <Table.Td key={key} style={style} colSpan={node.colSpan} rowSpan={node.rowSpan}>
          {inner()}
        </Table.Td>
      );
    case 'caption':
      if (parent === 'table') return <Table.Caption key={key}>{inner()}</Table.Caption>;
      return (
        <span key={key} style={{ fontWeight: 600, ...style }}>
          {inner()}{' '}
        </span>
      );
    case 'linkHtml':
      return <NarrativeLink key={key} node={node} />;
    case 'renderMultiMedia':
      return (
        <Text key={key} span c="dimmed" fs="italic">
          [Image or multimedia not shown{node.children.length > 0 ? ': ' : ''}
          {inner()}]
        </Text>
      );
    case 'footnote':
      return (
        <Text key={key} span size="sm" c="dimmed">
          {' '}
          (Footnote: {inner()})
        </Text>
      );
    case 'footnoteRef':
      return (
        <sup key={key} aria-label="Footnote reference">
          *
        </sup>
      );
  }
}

function NarrativeLink({ node }: { node: ElementNode }) {
  const label = textOf(node.children).trim();
  const url = safeHttpsUrl(node.href);
  if (url) {
    return (
      <Anchor href={url} target="_blank" rel="noopener noreferrer">
        {label || url}
      </Anchor>
    );
  }
  // Not https: the address is only shown, never followed.
  const shownHref = node.href && node.href !== label ? ` (${node.href})` : '';
  return (
    <span>
      {renderNodes(node.children, 'linkHtml')}
      {shownHref}
    </span>
  );
}
