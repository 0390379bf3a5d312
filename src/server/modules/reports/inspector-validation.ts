/**
 * Who validates a certificate (docs/decisions/0052-inspector-release.md). A 3.1 of a range released by an
 * authorised inspector names that inspector, the title and the time of release, their stamp where they have
 * one, with the Settings' statement
 * of the inspectors' independence from manufacturing. A 3.1 of a range that existed before inspectors were
 * kept, and every 2.2, name the person in Settings as before.
 */
import type { ReportLanguage } from '../../../shared/contract/reports';
import { isInspectionCertificate, type DocumentType, type Settings } from '../../../shared/contract/settings';
import type { RangeReleaseRow } from '../../db/schema/index';
import { textOr } from '../settings/settings.service';
import { inLanguage } from './format';
import type { ReportModel } from './report-model';

type SettingsPart = Pick<Settings, 'inspectorName' | 'inspectorStatementEn' | 'inspectorStatementZh'> & { documentType: DocumentType };

export function validationOf(
  s: SettingsPart,
  release: RangeReleaseRow | null,
  lang: ReportLanguage,
  stamp: Buffer | null = null,
): Pick<ReportModel, 'inspectorName' | 'release'> {
  if (!isInspectionCertificate(s.documentType) || !release || release.source !== 'inspector')
    return { inspectorName: s.inspectorName, release: null };
  return {
    inspectorName: release.inspectorName,
    release: {
      title: release.inspectorTitle,
      releasedAt: release.releasedAt,
      statement: inLanguage(lang, (l) =>
        textOr(l === 'zh' ? s.inspectorStatementZh : s.inspectorStatementEn, l, 'reports.defaultInspectorStatement'),
      ),
      stamp,
    },
  };
}
