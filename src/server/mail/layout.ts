/**
 * The one look of every email: a title, paragraphs and an optional button, as HTML and plain text.
 * Callers pass already-translated strings; nothing a visitor typed goes in here unescaped.
 */
import { escapeHtml } from '../../shared/html-escape';
import { labelled } from '../../shared/i18n/punctuation';

export interface EmailContent {
  language: 'en' | 'zh';
  title: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

export function renderEmail(c: EmailContent): { html: string; text: string } {
  const text = [
    c.title,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.action ? [labelled(c.language, c.action.label, c.action.url), ''] : []),
    ...(c.footer ? [c.footer] : []),
  ]
    .join('\n')
    .trim();
  const button = c.action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(c.action.url)}" style="background:#d32f2f;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(c.action.label)}</a></p>`
    : '';
  const html = `<!doctype html><html lang="${c.language === 'zh' ? 'zh-Hant' : 'en'}"><head><meta charset="utf-8"><title>${escapeHtml(c.title)}</title></head>
<body style="font-family:Arial,'Noto Sans TC',sans-serif;color:#222;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px;color:#b71c1c">${escapeHtml(c.title)}</h1>
${c.paragraphs.map((p) => `<p style="line-height:1.5">${escapeHtml(p)}</p>`).join('\n')}
${button}
${c.footer ? `<p style="color:#777;font-size:12px">${escapeHtml(c.footer)}</p>` : ''}
</body></html>`;
  return { html, text };
}
