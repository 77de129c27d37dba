import { render, screen } from '@testing-library/react';
import { Suspense, useState } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyComponent } from './lazy-component.tsx';

function Greeting({ name }: { name: string }) {
  const [count] = useState(1);
  return (
    <p>
      Hello {name} ({count})
    </p>
  );
}

/** A chunk the test delivers when it chooses. */
function chunk() {
  let deliver: () => void = () => undefined;
  const arrived = new Promise<typeof Greeting>((resolve) => {
    deliver = () => {
      resolve(Greeting);
    };
  });
  return { deliver, load: () => arrived };
}

const page = (Component: (props: { name: string }) => React.JSX.Element) => (
  <Suspense fallback={<p>Loading…</p>}>
    <Component name="Ada" />
  </Suspense>
);

describe('lazyComponent', () => {
  it('suspends like React.lazy while its chunk is on its way', async () => {
    const { deliver, load } = chunk();
    const Lazy = lazyComponent(load);
    render(page(Lazy));
    expect(screen.getByText('Loading…')).toBeInTheDocument();
    deliver();
    expect(await screen.findByText('Hello Ada (1)')).toBeInTheDocument();
  });

  it('renders at once, with no fallback, once preload() has brought the chunk', async () => {
    const { deliver, load } = chunk();
    const Lazy = lazyComponent(load);
    const preloaded = Lazy.preload();
    deliver();
    await preloaded;
    render(page(Lazy));
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
    expect(screen.getByText('Hello Ada (1)')).toBeInTheDocument();
  });

  it('resolves preload() when the chunk cannot be had, and asks again next time', async () => {
    let calls = 0;
    const Lazy = lazyComponent(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve(Greeting);
    });
    await expect(Lazy.preload()).resolves.toBeUndefined();
    await Lazy.preload();
    expect(calls).toBe(2);
    render(page(Lazy));
    expect(screen.getByText('Hello Ada (1)')).toBeInTheDocument();
  });
});
