/**
 * The staff app's frame drawn into the page the server sends (docs/decisions/0077-the-staff-page-arrives-with-its-frame.md):
 * the bar, the navigation's column and the screen's title, in the visitor's language and theme, so that a
 * phone shows where it is as the page arrives instead of a blank screen until the app has loaded and run
 * (4-6 s on Lighthouse's slow phone). It is plain markup with its own small stylesheet; the app removes it in
 * the same commit that draws the screen (src/web/app/root-shell.tsx), so the two are never seen together.
 *
 * The preferences that shape it (theme, navigation, navbar) come from the cookies the app keeps them in
 * (src/shared/preferences.ts); an unknown value is the default, so what a client sends picks one of a few
 * fixed variants and is never written into the page.
 */
import { escapeHtml } from '../../shared/html-escape';
import { APP_BAR_HEIGHT, BREAKPOINTS, PHONE_LANDSCAPE } from '../../shared/layout-sizes';
import { STAFF_SHELL_ID } from '../../shared/staff-shell-id';
import { DEFAULT_PREFERENCES, mergePreferences, PREFERENCE_KEYS, preferenceCookie, type Preferences } from '../../shared/preferences';

/** What of the preferences the frame shows. */
export interface ShellLook {
  theme: Preferences['theme'];
  /** the navigation on a wide screen: a column (full or icons only), or a row in the bar */
  nav: 'full' | 'collapsed' | 'row';
  /** the bar: none when hidden */
  bar: boolean;
  semiDark: boolean;
  boxed: boolean;
}

export function shellLook(cookies: Record<string, string | undefined>): ShellLook {
  const raw: Record<string, unknown> = {};
  for (const key of PREFERENCE_KEYS) raw[key] = cookies[preferenceCookie(key)];
  const p = mergePreferences(DEFAULT_PREFERENCES, raw);
  return {
    theme: p.theme,
    nav: p.layout === 'horizontal' ? 'row' : p.verticalNavCollapsed ? 'collapsed' : 'full',
    // A horizontal layout always has its bar (applyPreference).
    bar: p.navbarType !== 'hidden' || p.layout === 'horizontal',
    semiDark: p.semiDark,
    boxed: p.contentWidth === 'boxed',
  };
}

/** A name for a look, the same for the same look: it goes into the framed page's ETag (app-page.ts). */
export const lookKey = (look: ShellLook) => `${look.theme}.${look.nav}.${+look.bar}${+look.semiDark}${+look.boxed}`;

/** The logo mark, as the app's Brand draws it. */
const LOGO =
  '<svg class="trc-shell-logo" viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="6" fill="#c62828"/><path d="M9 9h14v3h-5.5v12h-3V12H9z" fill="#fff"/></svg>';
/** The menu button's icon (Material's "Menu"), where the app puts its button below 1280 px. */
const MENU =
  '<svg class="trc-shell-menu" viewBox="0 0 24 24" aria-hidden="true"><path d="M3 18h18v-2H3zm0-5h18v-2H3zm0-7v2h18V6z" fill="currentColor"/></svg>';

/**
 * Its stylesheet. Sizes are the app's (src/web/lib/theme.ts and the default layout), its breakpoints and bar's
 * height read from where the app reads them (src/shared/layout-sizes.ts): the navigation 260 px (72 collapsed)
 * from `lg`, the bar and its border below, the content's padding 16 px (24 from `md`), the title as the screens'
 * PageHeader writes it. The bar at the top moves as the app's loading bar does, on the
 * compositor (a transform), so that the page is seen to be on its way; it stands still for reduced motion.
 */
const CSS = `body{margin:0}
.trc-shell{--bg:#f5f5f7;--paper:#fff;--text:rgba(0,0,0,.87);--soft:rgba(0,0,0,.6);--line:rgba(0,0,0,.12);--nav:#1e1e2d;--navtext:#fff;display:flex;min-height:100dvh;background:var(--bg);color:var(--text);font-family:Roboto,"Noto Sans TC",Helvetica,Arial,sans-serif}
.trc-shell[data-semi=plain]{--nav:var(--paper);--navtext:var(--text)}
.trc-shell[data-theme=dark]{--bg:#121212;--paper:#1e1e1e;--text:#fff;--soft:rgba(255,255,255,.7);--line:rgba(255,255,255,.12);--nav:var(--paper);--navtext:var(--text)}
@media (prefers-color-scheme:dark){.trc-shell[data-theme=system]{--bg:#121212;--paper:#1e1e1e;--text:#fff;--soft:rgba(255,255,255,.7);--line:rgba(255,255,255,.12);--nav:var(--paper);--navtext:var(--text)}}
.trc-shell-nav{display:none;flex:0 0 260px;box-sizing:border-box;background:var(--nav);color:var(--navtext);border-right:1px solid var(--line)}
.trc-shell[data-nav=collapsed] .trc-shell-nav{flex-basis:72px}
.trc-shell-brand{display:flex;align-items:center;gap:10px;min-height:64px;padding:0 20px;font-weight:700;font-size:1.1rem;white-space:nowrap;overflow:hidden}
.trc-shell[data-nav=collapsed] .trc-shell-brand{justify-content:center;padding:0 8px}
.trc-shell[data-nav=collapsed] .trc-shell-nav .trc-shell-name,.trc-shell-bar .trc-shell-name{display:none}
.trc-shell-logo{width:25px;height:25px;flex-shrink:0}
.trc-shell-column{flex:1;min-width:0;display:flex;flex-direction:column}
.trc-shell-bar{display:flex;align-items:center;gap:8px;min-height:${APP_BAR_HEIGHT.phone}px;padding:0 16px;background:var(--paper);border-bottom:1px solid var(--line);font-weight:700;font-size:1.1rem}
.trc-shell-menu{width:24px;height:24px;padding:8px;margin-left:-12px}
.trc-shell-main{flex:1;padding:16px 0}
.trc-shell-content{box-sizing:border-box;padding:0 16px;margin:0 auto}
.trc-shell[data-width=boxed] .trc-shell-content{max-width:1440px}
.trc-shell-head{margin:0 0 24px}
.trc-shell-title{margin:0;font-size:1.5rem;font-weight:600;line-height:1.334}
.trc-shell-intro{margin:0;font-size:1rem;line-height:1.5;color:var(--soft)}
.trc-shell-card{height:50vh;box-sizing:border-box;padding:24px 16px;border-radius:8px;background:var(--paper)}
.trc-shell-line{height:14px;margin:0 0 20px;border-radius:4px;background:var(--line)}
.trc-shell-line:nth-child(2){width:72%}.trc-shell-line:nth-child(3){width:48%}
.trc-shell-progress{position:fixed;top:0;left:0;right:0;height:3px;overflow:hidden;background:rgba(198,40,40,.24)}
.trc-shell-progress::after{content:"";position:absolute;top:0;bottom:0;left:0;width:40%;background:#c62828;animation:trc-shell-progress 1.6s ease-in-out infinite}
@keyframes trc-shell-progress{from{transform:translateX(-100%)}to{transform:translateX(250%)}}
@media (prefers-reduced-motion:reduce){.trc-shell-progress::after{animation:none;width:100%;opacity:.5}}
@media ${PHONE_LANDSCAPE}{.trc-shell-bar{min-height:${APP_BAR_HEIGHT.phoneLandscape}px}}
@media (min-width:${BREAKPOINTS.sm}px){.trc-shell-bar{min-height:${APP_BAR_HEIGHT.wide}px;padding:0 24px}.trc-shell-menu{margin-left:-16px}}
@media (min-width:${BREAKPOINTS.md}px){.trc-shell-main{padding:24px 0}.trc-shell-content{padding:0 24px}}
@media (min-width:${BREAKPOINTS.lg}px){.trc-shell:not([data-nav=row]) .trc-shell-nav{display:block}.trc-shell-menu{display:none}.trc-shell:not([data-nav=row]) .trc-shell-bar .trc-shell-logo{display:none}.trc-shell[data-nav=row] .trc-shell-bar .trc-shell-name{display:inline}}`;

/**
 * The frame for a screen with this heading (its title and the line under it, already in the page's language),
 * as markup to put before the app's container. Hidden from assistive technology: it is a picture of what is
 * coming, and the app's own screen, with its landmarks, replaces it. The line under the title is the screen's
 * own, drawn as its PageHeader draws it, and often the largest text a screen shows before its data
 * (docs/decisions/0080-the-frame-carries-the-introduction.md).
 */
export function staffShell(look: ShellLook, heading: { title: string; intro?: string }, appTitle: string): string {
  const name = `<span class="trc-shell-name">${escapeHtml(appTitle)}</span>`;
  const bar = look.bar ? `<div class="trc-shell-bar">${MENU}${LOGO}${name}</div>` : '';
  return (
    `<div id="${STAFF_SHELL_ID}" class="trc-shell" aria-hidden="true" inert data-theme="${look.theme}" data-nav="${look.nav}" ` +
    `data-semi="${look.semiDark ? 'semi' : 'plain'}" data-width="${look.boxed ? 'boxed' : 'wide'}"><style>${CSS}</style>` +
    `<div class="trc-shell-progress"></div><div class="trc-shell-nav"><div class="trc-shell-brand">${LOGO}${name}</div></div>` +
    `<div class="trc-shell-column">${bar}<div class="trc-shell-main"><div class="trc-shell-content">` +
    `<div class="trc-shell-head"><h1 class="trc-shell-title">${escapeHtml(heading.title)}</h1>` +
    (heading.intro ? `<p class="trc-shell-intro">${escapeHtml(heading.intro)}</p>` : '') +
    `</div>` +
    `<div class="trc-shell-card"><div class="trc-shell-line"></div><div class="trc-shell-line"></div><div class="trc-shell-line"></div></div>` +
    `</div></div></div></div>`
  );
}
