import { describe, expect, it } from 'vitest';
import { catalogChunkName, catalogFile, catalogLanguage } from './catalog-files.ts';

describe('catalog files', () => {
  it('names a catalog module’s chunk by its part and language, and no other module’s', () => {
    expect(catalogChunkName('/repo/web/src/locales/app/de.po')).toBe('assets/catalogs/app-de.[hash].js');
    expect(catalogChunkName('/repo/web/src/locales/public/pt-BR.po')).toBe('assets/catalogs/public-pt-BR.[hash].js');
    expect(catalogChunkName('C:\\repo\\web\\src\\locales\\app\\en-XA.po?lingui')).toBe('assets/catalogs/app-en-XA.[hash].js');
    expect(catalogChunkName('/repo/web/src/app/i18n.ts')).toBeUndefined();
    expect(catalogChunkName('/repo/server/locales/de.po')).toBeUndefined();
    expect(catalogChunkName(null)).toBeUndefined();
  });

  it('reads the language of a catalog file from its path or URL, whatever its hash holds', () => {
    expect(catalogLanguage('assets/catalogs/app-de.B-N3pzth.js')).toBe('de');
    expect(catalogLanguage('https://tasks.example/assets/catalogs/public-zh-CN.DskbtTub.js')).toBe('zh-CN');
    expect(catalogLanguage('/assets/catalogs/app-en.CSxNP0fM.js')).toBe('en');
    expect(catalogLanguage('/assets/catalogs/app-en-XA.W07diouB.js')).toBe('en-XA');
    expect(catalogLanguage('/assets/de-B-N3pzth.js')).toBeUndefined();
    expect(catalogLanguage('/assets/catalogs/readme.txt')).toBeUndefined();
    expect(catalogLanguage('/index.html')).toBeUndefined();
    expect(catalogFile('/assets/catalogs/public-pt-BR.Cj3XNcLA.js')).toEqual({ part: 'public', language: 'pt-BR' });
  });
});
