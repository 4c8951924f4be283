/** The HTML shell of the service's few pages. */

/** `text` safe to place in HTML text or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A complete page; `body` is trusted HTML, `scripts` are paths under the service; the header links sign-up only when it is open. */
export function page(title: string, body: string, scripts: readonly string[] = [], signupOpen = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ASO reference job service</title>
<link rel="stylesheet" href="/assets/style.css">
${scripts.map((s) => `<script type="module" src="${escapeHtml(s)}"></script>`).join('\n')}
</head>
<body>
<header><a href="/">ASO reference job service</a><nav><a href="/dashboard">Dashboard</a>${signupOpen ? ' <a href="/signup">Sign up</a>' : ''}</nav></header>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The security headers of every page. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};
