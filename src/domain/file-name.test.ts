import { describe, expect, it } from 'vitest';
import { fileBaseFromTitle, firstChars, safeSegment } from './file-name';

describe("a file name's base made from a thread's title", () => {
  it('is cut, then trimmed: no space is left before the extension', () => {
    const title = 'A very very long thread title that goes on and on and on to the end of it';
    const base = fileBaseFromTitle(title, 60, 'thread');
    expect(base).toBe('A very very long thread title that goes on and on and on to');
    expect(base.endsWith(' ')).toBe(false);
  });

  it('keeps the letters and digits of any script', () => {
    expect(fileBaseFromTitle('東京の天気 2026', 60, 'thread')).toBe('東京の天気 2026');
    expect(fileBaseFromTitle('Погода в Москве', 60, 'thread')).toBe('Погода в Москве');
    expect(fileBaseFromTitle('हिंदी में सारांश', 60, 'thread')).toBe('हिंदी में सारांश'); // vowel signs are marks
    expect(fileBaseFromTitle('Ελληνικά: σημειώσεις', 60, 'thread')).toBe('Ελληνικά σημειώσεις');
  });

  it('drops what file systems and downloads treat specially, and falls back when nothing is left', () => {
    expect(fileBaseFromTitle('a/b\\c:d*e?f"g<h>i|j.k', 60, 'thread')).toBe('abcdefghijk');
    expect(fileBaseFromTitle('evil\u202Egpj.exe', 60, 'thread')).toBe('evilgpjexe'); // a right-to-left override
    expect(fileBaseFromTitle('line\nbreak\ttab', 60, 'thread')).toBe('linebreaktab');
    expect(fileBaseFromTitle('?!/…', 60, 'thread')).toBe('thread');
    expect(fileBaseFromTitle('   ', 60, 'thread')).toBe('thread');
  });

  it('never cuts a character outside the BMP in two', () => {
    const title = `${'a'.repeat(59)}𠮷𠮷`; // U+20BB7, a letter written as two UTF-16 units
    expect(fileBaseFromTitle(title, 60, 'thread')).toBe(`${'a'.repeat(59)}𠮷`);
    expect(firstChars('𠮷𠮷', 1)).toBe('𠮷');
  });
});

describe("a URL segment's safe form", () => {
  it('keeps letters and digits of any script, with _ . and -, and makes each other run one _', () => {
    expect(safeSegment('отчёт_2026.pdf')).toBe('отчёт_2026.pdf');
    expect(safeSegment('報告書.pdf')).toBe('報告書.pdf');
    expect(safeSegment('a b:c<>d.txt')).toBe('a_b_c_d.txt');
  });
});
