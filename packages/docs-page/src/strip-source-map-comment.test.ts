import { describe, expect, it } from 'vitest';
import { stripSourceMapComment } from './strip-source-map-comment.ts';

describe('stripSourceMapComment', () => {
  it("drops a JavaScript file's last-line comment", () => {
    expect(stripSourceMapComment('let a = 1;\n//# sourceMappingURL=a.js.map\n')).toBe('let a = 1;\n');
    expect(stripSourceMapComment('let a = 1;\n//@ sourceMappingURL=a.js.map')).toBe('let a = 1;\n');
  });

  it("drops a CSS file's last-line comment, and the blank lines before it", () => {
    expect(stripSourceMapComment('a{color:red}\n\n/*# sourceMappingURL=a.css.map*/')).toBe('a{color:red}\n');
    expect(stripSourceMapComment('a{color:red}\n/*# sourceMappingURL=a.css.map */\n\n')).toBe('a{color:red}\n');
  });

  it('keeps a file whose last line is anything else, even one that mentions a source map', () => {
    for (const text of [
      'let a = 1;\n',
      '//# sourceMappingURL=a.js.map\nlet a = 1;\n',
      'let url = "//# sourceMappingURL=a.js.map";',
      '/*! see LICENSE.txt */!function(){}();',
      '',
    ]) {
      expect(stripSourceMapComment(text)).toBe(text);
    }
  });
});
