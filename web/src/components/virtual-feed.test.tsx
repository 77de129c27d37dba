import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { VirtualFeed } from './virtual-feed.tsx';

const items = Array.from({ length: 500 }, (_, i) => ({ id: `item-${i}`, title: `Item ${i}` }));

function Harness({ count }: { count: number }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  return (
    <div
      ref={(el) => {
        scrollRef.current = el;
        // jsdom has no layout: give the scroll container a 400 px viewport.
        if (el) Object.defineProperty(el, 'clientHeight', { configurable: true, value: 400 });
      }}
      data-testid="scroller"
    >
      <h2 id="list-title">Things</h2>
      <VirtualFeed
        items={items.slice(0, count)}
        getKey={(item) => item.id}
        scrollRef={scrollRef}
        estimateSize={100}
        gap={0}
        setSize={count}
        labelledBy="list-title"
        overscan={2}
        renderItem={(item, position) => (
          <article aria-label={item.title} {...position}>
            {item.title}
          </article>
        )}
      />
    </div>
  );
}

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

describe('VirtualFeed', () => {
  it('renders a short list whole, as a labelled feed of positioned articles', () => {
    render(<Harness count={10} />);
    const feed = screen.getByRole('feed', { name: 'Things' });
    const articles = screen.getAllByRole('article');
    expect(feed).toBeInTheDocument();
    expect(articles).toHaveLength(10);
    expect(articles[3]).toHaveAttribute('aria-posinset', '4');
    expect(articles[3]).toHaveAttribute('aria-setsize', '10');
  });

  it('renders only the visible window of a long list, with space standing in for the rest', async () => {
    render(<Harness count={500} />);
    await act(frame);
    const first = screen.getAllByRole('article');
    // 400 px viewport / 100 px items = 4 or 5 visible, plus 2 overscan below.
    expect(first.length).toBeLessThanOrEqual(8);
    expect(first[0]).toHaveAccessibleName('Item 0');
    const feed = screen.getByRole('feed');
    expect(feed.style.paddingTop).toBe('0px');
    expect(parseInt(feed.style.paddingBottom, 10)).toBeGreaterThan(40_000);

    const scroller = screen.getByTestId('scroller');
    scroller.scrollTop = 25_000;
    scroller.dispatchEvent(new Event('scroll'));
    await act(frame);
    const window = screen.getAllByRole('article');
    expect(window.length).toBeLessThanOrEqual(10);
    expect(screen.getByRole('article', { name: 'Item 250' })).toHaveAttribute('aria-posinset', '251');
    expect(screen.queryByRole('article', { name: 'Item 0' })).not.toBeInTheDocument();
    expect(parseInt(feed.style.paddingTop, 10)).toBe(24_800);
  });
});
