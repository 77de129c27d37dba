import { afterEach, describe, expect, it } from 'vitest';
import { inlineStep, isRtl, startSide } from './direction.ts';

afterEach(() => {
  document.documentElement.removeAttribute('dir');
  document.body.replaceChildren();
});

/** An element inside `<div dir=…>` (none: no attribute) in the page. */
function inside(dir?: string): HTMLElement {
  const box = document.createElement('div');
  if (dir !== undefined) box.dir = dir;
  const element = document.createElement('span');
  box.append(element);
  document.body.append(box);
  return element;
}

describe('isRtl', () => {
  it('follows the page’s dir, left to right when it has none', () => {
    expect(isRtl()).toBe(false);
    document.documentElement.dir = 'rtl';
    expect(isRtl()).toBe(true);
    expect(isRtl(inside())).toBe(true);
    document.documentElement.dir = 'ltr';
    expect(isRtl(inside())).toBe(false);
  });

  it('takes the nearest rtl or ltr around the element, skipping dir="auto"', () => {
    document.documentElement.dir = 'rtl';
    expect(isRtl(inside('ltr'))).toBe(false);
    expect(isRtl(inside('auto'))).toBe(true);
    document.documentElement.dir = 'ltr';
    expect(isRtl(inside('RTL'))).toBe(true);
  });
});

describe('startSide and inlineStep', () => {
  it('left to right: the start is on the left, ArrowLeft goes back', () => {
    expect(startSide()).toBe('left');
    expect(inlineStep('ArrowLeft')).toBe(-1);
    expect(inlineStep('ArrowRight')).toBe(1);
    expect(inlineStep('ArrowUp')).toBe(0);
    expect(inlineStep('a')).toBe(0);
  });

  it('right to left: the start is on the right, ArrowLeft goes on (the key points where the thing moves on screen)', () => {
    document.documentElement.dir = 'rtl';
    expect(startSide()).toBe('right');
    expect(inlineStep('ArrowLeft')).toBe(1);
    expect(inlineStep('ArrowRight')).toBe(-1);
    expect(inlineStep('ArrowDown')).toBe(0);
    // An element laid out left to right inside keeps its own way.
    const ltr = inside('ltr');
    expect(startSide(ltr)).toBe('left');
    expect(inlineStep('ArrowLeft', ltr)).toBe(-1);
  });
});
