import { describe, expect, it } from 'vitest';
import { csvRecord, tenantText } from '../../../server/domain/evidence/csv.js';

describe('evidence CSV cells', () => {
  it('when tenant or provider text starts with = + - @ tab or CR, then it gets a leading single quote; anything else is unchanged', () => {
    expect(['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'].map(tenantText)).toEqual([
      `'=HYPERLINK("http://x","y")`,
      "'+1+1",
      "'-2+3",
      "'@SUM(A1)",
      "'\t=1",
      "'\r=1",
    ]);
    expect(['att_1', 'pi_123', 'a=b', ' =1', "'=1", '', null].map(tenantText)).toEqual(['att_1', 'pi_123', 'a=b', ' =1', "'=1", '', null]);
  });

  it('when a neutralised cell is written, then RFC 4180 quoting still applies, and numbers stay numbers (a negative one too)', () => {
    expect(csvRecord([tenantText('=HYPERLINK("http://x","y")'), tenantText('\r=1'), -5, 0])).toBe(
      `"'=HYPERLINK(""http://x"",""y"")","'\r=1",-5,0\r\n`,
    );
  });
});
