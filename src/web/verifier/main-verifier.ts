/**
 * The offline verifier (`/verify`; docs/decisions/0063-offline-verification.md): reads a report's QR code
 * with the camera, from a photo or as pasted text, checks its signed proof against the published keys on
 * this device, says what it cannot know offline and, with a network, asks the server. No framework: the
 * first load stays small, and a page kept for offline use must not depend on much.
 */
import enTexts from '../../shared/i18n/en/verifier.json';
import zhTexts from '../../shared/i18n/zh/verifier.json';
import { isLanguage, type Language } from '../../shared/i18n/languages';
import { checkProof, type ProofCheck } from '../../shared/offline-proof';
import { LANGUAGE_KEY, wantedLanguage } from '../lib/language-start';
import { setMetaDescription } from '../lib/meta-description';
import { storageKey } from '../../shared/preferences';
import { writeCookie, writeStored } from '../lib/storage';
import { readPhoto, scanCamera } from './qr-reading';
import { canVerify, keepForOffline, loadKeys, type KeptKeys } from './verifier-store';
import './verifier.css';

type Texts = typeof enTexts;
const TEXTS: Record<Language, Texts> = { en: enTexts, zh: zhTexts };

let language: Language = wantedLanguage();
let keys: KeptKeys | null = null;
let offlineReady = false;
let cryptoOk = true;
let lastText: string | null = null;
let stopCamera: (() => void) | null = null;

function t(key: string, params: Record<string, string> = {}): string {
  const find = (tree: unknown) => key.split('.').reduce<unknown>((node, k) => (node as Record<string, unknown> | undefined)?.[k], tree);
  const text = (find(TEXTS[language]) ?? find(TEXTS.en) ?? key) as string;
  return text.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => params[name] ?? '');
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  el.append(...children);
  return el;
}

function formatDay(isoDay: string): string {
  const [y, m, d] = isoDay.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(language === 'zh' ? 'zh-TW' : 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(
    Date.UTC(y, m - 1, d),
  );
}

const root = document.getElementById('verifier')!;
const result = h('section', { class: 'vf-result', 'data-testid': 'verifier-result' });
const video = h('video', { class: 'vf-video', muted: '', hidden: '' });

/** The server's word on a genuine report whose link points here (null: not asked). */
async function askServer(link: string | null, number: string, into: HTMLElement): Promise<void> {
  if (!link) return;
  const url = new URL(link);
  const id = url.searchParams.get('report');
  if (url.origin !== location.origin || !id) return;
  const line = h('p', { class: 'vf-online', 'data-testid': 'verifier-online' }, t('online.checking'));
  into.append(line);
  if (!navigator.onLine) {
    line.textContent = t('online.offline');
    return;
  }
  try {
    const res = await fetch(`/api/v1/public/reports/${encodeURIComponent(id)}`, { headers: { 'accept-language': language } });
    if (res.status === 404) line.textContent = t('online.unknown');
    else if (!res.ok) line.textContent = t('online.offline');
    else {
      const { data } = (await res.json()) as { data: { number: string; supersededBy: { number: string; issuedAt: string } | null } };
      // The link is not signed: a genuine proof could be paired with another report's link.
      if (data.number !== number) {
        line.textContent = t('online.mismatch');
        line.classList.add('vf-warn');
        return;
      }
      line.textContent = data.supersededBy
        ? t('online.superseded', { number: data.supersededBy.number, date: formatDay(data.supersededBy.issuedAt.slice(0, 10)) })
        : t('online.current');
      line.classList.toggle('vf-warn', data.supersededBy !== null);
    }
  } catch {
    line.textContent = t('online.offline');
  }
}

function showCheck(check: ProofCheck): void {
  result.replaceChildren();
  if (check.status === 'genuine') {
    const c = check.claims;
    const rows: Array<[string, string]> = [
      [t('number'), c.n],
      [t('serial'), c.s],
      [t('issued'), formatDay(c.d)],
      [t('result'), t(c.r)],
      [t('key'), check.kid],
    ];
    result.className = 'vf-result vf-ok';
    result.append(
      h('h2', {}, t('genuine')),
      h('p', {}, t('genuineText')),
      h('dl', {}, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)])),
      h('p', { class: 'vf-note' }, t('offlineLimits')),
    );
    void askServer(check.link, c.n, result);
    return;
  }
  if (check.status === 'no-proof') {
    result.className = 'vf-result vf-info';
    result.append(h('p', {}, t('noProof')));
  } else {
    result.className = 'vf-result vf-bad';
    result.append(h('h2', {}, t('notGenuine')), h('p', {}, t(`reason.${check.reason}`)));
  }
  // Only a link to this site is offered: a code that is not genuine may point anywhere.
  if (check.status === 'no-proof' && check.link && new URL(check.link).origin === location.origin)
    result.append(h('p', {}, h('a', { href: check.link }, t('openLink'))));
}

async function checkText(text: string): Promise<void> {
  lastText = text;
  showCheck(await checkProof(text, keys?.keys ?? []));
}

function showMessage(key: string): void {
  result.className = 'vf-result vf-bad';
  result.replaceChildren(h('p', {}, t(key)));
}

function setLanguage(next: Language): void {
  language = next;
  writeStored(LANGUAGE_KEY, next);
  writeCookie(storageKey(LANGUAGE_KEY), next);
  render();
  if (lastText) void checkText(lastText);
}

function render(): void {
  document.documentElement.lang = language === 'zh' ? 'zh-Hant-TW' : 'en';
  document.title = t('title');
  setMetaDescription(t('description'));
  const status = !cryptoOk
    ? t('noCrypto')
    : offlineReady && keys
      ? t('ready', { date: formatDay(keys.fetchedAt.slice(0, 10)) })
      : t('notReady');

  const other: Language = language === 'en' ? 'zh' : 'en';
  const switcher = h(
    'button',
    { type: 'button', class: 'vf-lang', lang: other === 'zh' ? 'zh-Hant-TW' : 'en' },
    other === 'zh' ? '中文' : 'English',
  );
  switcher.addEventListener('click', () => setLanguage(other));

  const scan = h('button', { type: 'button', class: 'vf-primary' }, stopCamera ? t('stopScan') : t('scan'));
  scan.addEventListener('click', async () => {
    if (stopCamera) {
      stopCamera();
      stopCamera = null;
      video.hidden = true;
      render();
      return;
    }
    try {
      video.hidden = false;
      stopCamera = await scanCamera(video, (text) => {
        stopCamera = null;
        video.hidden = true;
        render();
        void checkText(text);
      });
      render();
    } catch {
      video.hidden = true;
      showMessage('noCamera');
    }
  });

  const photo = h('input', { type: 'file', accept: 'image/*', id: 'vf-photo', class: 'vf-file' });
  photo.addEventListener('change', async () => {
    const file = photo.files?.[0];
    if (!file) return;
    const text = await readPhoto(file).catch(() => null);
    if (text) await checkText(text);
    else showMessage('noCode');
  });

  const pasted = h('textarea', { id: 'vf-text', rows: '3', spellcheck: 'false', autocapitalize: 'off' });
  const check = h('button', { type: 'button' }, t('check'));
  check.addEventListener('click', () => {
    if (pasted.value.trim()) void checkText(pasted.value);
  });

  root.replaceChildren(
    h('header', { class: 'vf-head' }, h('h1', {}, t('title')), switcher),
    h('p', {}, t('intro')),
    h('p', { class: `vf-status${offlineReady && keys && cryptoOk ? ' vf-ready' : ''}`, 'data-testid': 'verifier-status' }, status),
    h('div', { class: 'vf-actions' }, scan, h('label', { for: 'vf-photo', class: 'vf-button' }, t('photo')), photo),
    video,
    h('label', { for: 'vf-text' }, t('paste')),
    pasted,
    check,
    result,
  );
}

/** A proof the page was opened with: a QR link (/search?report=…#proof) served here by the worker offline. */
function openedWith(): string | null {
  const proof = location.hash.slice(1);
  if (!proof) return null;
  return location.pathname === '/search' ? `${location.origin}${location.pathname}${location.search}#${proof}` : proof;
}

async function start(): Promise<void> {
  const asked = new URLSearchParams(location.search).get('lang');
  if (isLanguage(asked)) language = asked;
  render();
  [cryptoOk, keys] = await Promise.all([canVerify(), loadKeys()]);
  offlineReady = await keepForOffline();
  render();
  const opened = openedWith();
  if (opened) await checkText(opened);
}

void start();
