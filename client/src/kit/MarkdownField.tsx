import { Box, type SxProps, type Theme } from '@mui/material';
import Markdown from 'react-markdown';
import { type FieldProps, useFieldValue } from 'react-admin';
import { safeMarkdownUrl } from './MarkdownField.url';
import { sxItems } from './sx';

const markdownSx = {
  '& h1': { fontSize: '1.6rem' },
  '& h2': { fontSize: '1.35rem' },
  '& h3': { fontSize: '1.15rem' },
  '& pre': { p: 1, bgcolor: 'action.hover', borderRadius: 1, overflow: 'auto' },
  '& code': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '0.9em' },
  '& img': { maxWidth: '100%' },
  '& table': { borderCollapse: 'collapse' },
  '& td, & th': { border: 1, borderColor: 'divider', px: 1 },
  wordBreak: 'break-word',
} satisfies SxProps<Theme>;

/**
 * Markdown rendered safely: raw HTML is shown as text (never parsed), links only go to
 * http(s)/mailto, images only come from http(s); links open in a new tab without an opener.
 */
export function MarkdownView({ text, sx }: { text: string; sx?: SxProps<Theme> }) {
  return (
    <Box className="markdown-body" sx={[markdownSx, ...sxItems(sx)]} data-testid="markdown-view">
      <Markdown
        skipHtml={false}
        urlTransform={safeMarkdownUrl}
        components={{
          a: ({ node: _node, href, children, ...rest }) =>
            href ? (
              <a {...rest} href={href} target="_blank" rel="noopener noreferrer nofollow">
                {children}
              </a>
            ) : (
              <span>{children}</span>
            ),
          img: ({ node: _node, src, alt }) =>
            src ? <img src={String(src)} alt={alt ?? ''} loading="lazy" referrerPolicy="no-referrer" /> : <span>{alt}</span>,
        }}
      >
        {text}
      </Markdown>
    </Box>
  );
}

/** A Markdown field of the record in context, rendered read-only: `<MarkdownField source="content" />`. */
export function MarkdownField(props: FieldProps & { sx?: SxProps<Theme> }) {
  const value: unknown = useFieldValue(props);
  return <MarkdownView text={typeof value === 'string' ? value : ''} sx={props.sx} />;
}
