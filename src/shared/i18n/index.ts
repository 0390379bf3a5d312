/**
 * The message catalogue of both sides. Each domain keeps its strings in `<lang>/<domain>.json`; the file
 * name is the first segment of the key (`errors.productNotFound`). en and zh must have the same keys
 * (test/i18n-catalogue.test.ts checks it). Adding a domain: add the two files and list them below.
 */
import enAuth from './en/auth.json';
import enErrors from './en/errors.json';
import enProducts from './en/products.json';
import enSerials from './en/serials.json';
import enStaff from './en/staff.json';
import enValidation from './en/validation.json';
import zhAuth from './zh/auth.json';
import zhErrors from './zh/errors.json';
import zhProducts from './zh/products.json';
import zhSerials from './zh/serials.json';
import zhStaff from './zh/staff.json';
import zhValidation from './zh/validation.json';
// The web app's namespaces
import enApp from './en/app.json';
import enNav from './en/nav.json';
import enPages from './en/pages.json';
import enPrefs from './en/prefs.json';
import enTable from './en/table.json';
import enForm from './en/form.json';
import enAuthScreens from './en/authScreens.json';
import enStaffScreens from './en/staffScreens.json';
import enAccount from './en/account.json';
import zhApp from './zh/app.json';
import zhNav from './zh/nav.json';
import zhPages from './zh/pages.json';
import zhPrefs from './zh/prefs.json';
import zhTable from './zh/table.json';
import zhForm from './zh/form.json';
import zhAuthScreens from './zh/authScreens.json';
import zhStaffScreens from './zh/staffScreens.json';
import zhAccount from './zh/account.json';
// Machine data: server messages, CSV import messages, screens
import enMachineData from './en/machineData.json';
import enMachineImport from './en/machineImport.json';
import enMachineScreens from './en/machineScreens.json';
import zhMachineData from './zh/machineData.json';
import zhMachineImport from './zh/machineImport.json';
import zhMachineScreens from './zh/machineScreens.json';
// Report center: PDF and email texts, settings, public API messages, the public page, the settings screen
import enReports from './en/reports.json';
import enSettings from './en/settings.json';
import enPublicApi from './en/publicApi.json';
import enSearch from './en/search.json';
import enVisitor from './en/visitor.json';
import enSettingsScreen from './en/settingsScreen.json';
import zhReports from './zh/reports.json';
import zhSettings from './zh/settings.json';
import zhPublicApi from './zh/publicApi.json';
import zhSearch from './zh/search.json';
import zhVisitor from './zh/visitor.json';
import zhSettingsScreen from './zh/settingsScreen.json';
// Quality analysis and the audit trail
import enQuality from './en/quality.json';
import enAudit from './en/audit.json';
import zhQuality from './zh/quality.json';
import zhAudit from './zh/audit.json';
// Searches
import enSearches from './en/searches.json';
import zhSearches from './zh/searches.json';
// Every CSV import: the file's encoding
import enCsvImport from './en/csvImport.json';
import zhCsvImport from './zh/csvImport.json';
// The staff dashboard
import enDashboard from './en/dashboard.json';
import zhDashboard from './zh/dashboard.json';
// Standards and judgement: valve types, seats, verdicts, reasons, the requirement tables
import enStandards from './en/standards.json';
import zhStandards from './zh/standards.json';
// Nameplate QR labels of serial ranges
import enLabels from './en/labels.json';
import zhLabels from './zh/labels.json';

// Limits on what a request may cost: batch bodies, busy renderers, uploads
import enLimits from './en/limits.json';
import zhLimits from './zh/limits.json';

// The glossary (one term, one translation: src/shared/i18n/glossary.ts), chart axes, the small pages
import enTerms from './en/terms.json';
import enCharts from './en/charts.json';
import enMisc from './en/misc.json';
import zhTerms from './zh/terms.json';
import zhCharts from './zh/charts.json';
import zhMisc from './zh/misc.json';

// Customers, purchase orders and deliveries: server messages
import enOrders from './en/orders.json';
import zhOrders from './zh/orders.json';
// Customers, purchase orders and deliveries: the screens
import enOrderScreens from './en/orderScreens.json';
import zhOrderScreens from './zh/orderScreens.json';
// The buyer's delivery links: server messages and their email
import enMaterials from './en/materials.json';
import zhMaterials from './zh/materials.json';
import enDeliveryLinks from './en/deliveryLinks.json';
// Quality alerts: the inbox, its emails, the thresholds
import enAlerts from './en/alerts.json';
import zhAlerts from './zh/alerts.json';
// The offline verifier page (src/web/verifier)
import enVerifier from './en/verifier.json';
import zhVerifier from './zh/verifier.json';
import zhDeliveryLinks from './zh/deliveryLinks.json';
// Webhooks: server messages and the settings screen
import enWebhooks from './en/webhooks.json';
import zhWebhooks from './zh/webhooks.json';

import type { Language } from './languages';

export { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from './languages';

type Tree = { [key: string]: string | Tree };

export const catalogues: Record<Language, Tree> = {
  en: {
    errors: enErrors,
    validation: enValidation,
    products: enProducts,
    serials: enSerials,
    auth: enAuth,
    staff: enStaff,
    app: enApp,
    nav: enNav,
    pages: enPages,
    prefs: enPrefs,
    table: enTable,
    form: enForm,
    authScreens: enAuthScreens,
    staffScreens: enStaffScreens,
    account: enAccount,
    machineData: enMachineData,
    machineImport: enMachineImport,
    machineScreens: enMachineScreens,
    reports: enReports,
    settings: enSettings,
    publicApi: enPublicApi,
    search: enSearch,
    visitor: enVisitor,
    settingsScreen: enSettingsScreen,
    quality: enQuality,
    audit: enAudit,
    searches: enSearches,
    dashboard: enDashboard,
    standards: enStandards,
    labels: enLabels,
    limits: enLimits,
    csvImport: enCsvImport,
    terms: enTerms,
    charts: enCharts,
    misc: enMisc,
    orders: enOrders,
    orderScreens: enOrderScreens,
    deliveryLinks: enDeliveryLinks,
    verifier: enVerifier,
    alerts: enAlerts,
    materials: enMaterials,
    webhooks: enWebhooks,
  },
  zh: {
    errors: zhErrors,
    validation: zhValidation,
    products: zhProducts,
    serials: zhSerials,
    auth: zhAuth,
    staff: zhStaff,
    app: zhApp,
    nav: zhNav,
    pages: zhPages,
    prefs: zhPrefs,
    table: zhTable,
    form: zhForm,
    authScreens: zhAuthScreens,
    staffScreens: zhStaffScreens,
    account: zhAccount,
    machineData: zhMachineData,
    machineImport: zhMachineImport,
    machineScreens: zhMachineScreens,
    reports: zhReports,
    settings: zhSettings,
    publicApi: zhPublicApi,
    search: zhSearch,
    visitor: zhVisitor,
    settingsScreen: zhSettingsScreen,
    quality: zhQuality,
    audit: zhAudit,
    searches: zhSearches,
    dashboard: zhDashboard,
    standards: zhStandards,
    labels: zhLabels,
    limits: zhLimits,
    csvImport: zhCsvImport,
    terms: zhTerms,
    charts: zhCharts,
    misc: zhMisc,
    orders: zhOrders,
    orderScreens: zhOrderScreens,
    deliveryLinks: zhDeliveryLinks,
    verifier: zhVerifier,
    alerts: zhAlerts,
    materials: zhMaterials,
    webhooks: zhWebhooks,
  },
};

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** A catalogue's own string for `key` in `language`, without falling back to English. */
export function catalogueText(language: Language, key: string): string | undefined {
  return lookup(catalogues[language], key);
}

export function hasKey(key: string): boolean {
  return lookup(catalogues.en, key) !== undefined;
}

/** Translate `key` with i18next-style `{{name}}` interpolation; falls back to English, then the key. */
export function translate(language: Language, key: string, params: Record<string, unknown> = {}): string {
  const text = lookup(catalogues[language], key) ?? lookup(catalogues.en, key) ?? key;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Every dotted key of a catalogue, for the en/zh parity test. */
export function flattenKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [prefix + k] : flattenKeys(v, `${prefix}${k}.`)));
}
