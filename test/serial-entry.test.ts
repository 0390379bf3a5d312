/** The delivery page's serial entry: ranges written out within one series and the cap, bad lines by number. */
import { describe, expect, it } from 'vitest';
import { DELIVERY_UNITS_MAX } from '../src/shared/contract/orders';
import { expandSerialRange, parseSerialEntry } from '../src/web/features/orders/components/serial-entry';

describe('the serial entry box', () => {
  it('writes a range out in full, keeping the width and prefix', () => {
    expect(expandSerialRange('VB-0098', 'VB-0101')).toEqual(['VB-0098', 'VB-0099', 'VB-0100', 'VB-0101']);
    expect(expandSerialRange('vb-0005', 'VB-0005')).toEqual(['VB-0005']);
  });

  it('refuses a range of two series, a backwards one, and one longer than a request may carry', () => {
    expect(expandSerialRange('VB-0001', 'VC-0002')).toBeNull();
    expect(expandSerialRange('VB-001', 'VB-0002')).toBeNull();
    expect(expandSerialRange('VB-0009', 'VB-0001')).toBeNull();
    expect(expandSerialRange('A000000', `A${String(DELIVERY_UNITS_MAX).padStart(6, '0')}`)).toBeNull();
    expect(expandSerialRange('A000001', `A${String(DELIVERY_UNITS_MAX).padStart(6, '0')}`)).toHaveLength(DELIVERY_UNITS_MAX);
  });

  it('reads serials, serial,tag and ranges a line each onto the chosen line, and names the bad lines', () => {
    const text = 'VB-0001\n\nVB-0002, FV-101\nVB-0003…VB-0004\nVB-0005...VB-0004\na,b,c\nVB-0010~VB-0011';
    expect(parseSerialEntry(text, 2)).toEqual({
      units: [
        { serial: 'VB-0001', line: 2, tag: '' },
        { serial: 'VB-0002', line: 2, tag: 'FV-101' },
        { serial: 'VB-0003', line: 2, tag: '' },
        { serial: 'VB-0004', line: 2, tag: '' },
        { serial: 'VB-0010', line: 2, tag: '' },
        { serial: 'VB-0011', line: 2, tag: '' },
      ],
      bad: [5, 6],
    });
  });
});
