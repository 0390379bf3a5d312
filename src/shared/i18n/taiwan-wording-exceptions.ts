/**
 * Where the Chinese catalogues keep a wording that OpenCC's Taiwan-phrase conversion (`s2twp`, from `cn` to
 * `twp`) would change, and why. test/taiwan-wording.test.ts runs every Chinese catalogue text through that
 * conversion with these wordings set aside: any other change fails it. `word` is the text kept (with the
 * words around it where only that use is right), `becomes` what OpenCC makes of it. A real mainland
 * wording is fixed in the catalogue instead of being listed here.
 */
export interface WordingException {
  word: string;
  becomes: string;
  reason: string;
}

export const TAIWAN_WORDING_EXCEPTIONS: readonly WordingException[] = [
  {
    word: '機台',
    becomes: '機臺',
    reason: '台 and 臺 are both standard in Taiwan; the product writes 台 throughout (測試機台), as the trade does',
  },
  { word: '權限', becomes: '許可權', reason: 'a permission is 權限 in Taiwan; 許可權 is the mainland rendering of the same word' },
  { word: '類型', becomes: '型別', reason: '型別 is a data type in programming; a kind of record, test or document is 類型' },
  { word: '項目', becomes: '專案', reason: '專案 is a project; the texts mean an item (測試項目, the line of a list)' },
  {
    word: '代碼',
    becomes: '程式碼',
    reason: '程式碼 is source code; a customer code, a country code or an EN 10168 field code is 代碼',
  },
  {
    word: '連接方式',
    becomes: '連線方式',
    reason: '連線 is a network connection; a valve’s end connection (flange, thread) is 連接方式, the glossary term',
  },
  { word: '對象', becomes: '物件', reason: '物件 is an object in programming; the subject a permission applies to is 對象' },
  { word: '儀表板', becomes: '儀錶板', reason: '儀表板 is the usual Taiwan word for a software dashboard (Microsoft, Google zh-TW)' },
  { word: '像素', becomes: '畫素', reason: '像素 is the usual Taiwan word for an image pixel; 畫素 is mostly camera advertising' },
  {
    word: '符合性聲明',
    becomes: '符合性宣告',
    reason: '符合性聲明 is the declaration of conformity (EN ISO/IEC 17050) as Taiwan’s BSMI names it; the glossary allows 聲明 only there',
  },
  {
    word: '文件自簽署後',
    becomes: '檔案自簽署後',
    reason: 'what a PDF reader reports unchanged since signing is the signed document (文件), as Acrobat zh-TW words it',
  },
  {
    word: '文件簽章憑證',
    becomes: '檔案簽章憑證',
    reason: 'a document signing certificate is 文件簽章憑證 in the catalogues of Taiwan certificate authorities',
  },
  { word: '本文件', becomes: '本檔案', reason: 'the signed report speaks of itself as a document (文件), not as a file (檔案)' },
  {
    word: '文件類型',
    becomes: '檔案型別',
    reason: 'the EN 10204 document type (2.2, 3.1) of a certificate: a kind of document, not a file type',
  },
  { word: '是只有', becomes: '是隻有', reason: 'a conversion error: 是只有 (“is only”) is read as 是隻 (隻 the measure word)' },
];
