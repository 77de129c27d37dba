import { screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { attachmentUrl, type Attachment } from '#shared/schemas/attachments.ts';
import { renderWithProviders } from '#web/testing/render.tsx';
import { AttachmentViewer } from './attachment-viewer.tsx';

const image = (id: string, name: string): Attachment => ({
  _id: id,
  name,
  size: 1000,
  type: 'image/png',
  width: 640,
  height: 480,
  url: attachmentUrl(id),
  by: { email: 'ada@example.com', fullName: 'Ada Lovelace' },
  createdAt: '2026-03-01T10:00:00.000Z',
});
const IMAGES = [image('a1', 'one.png'), image('a2', 'two.png'), image('a3', 'three.png')];

function Viewer() {
  const [index, setIndex] = useState(0);
  return <AttachmentViewer images={IMAGES} index={index} onIndex={setIndex} onClose={() => undefined} />;
}

afterEach(() => {
  document.documentElement.removeAttribute('dir');
});

describe('the image viewer’s arrow keys', () => {
  it('right to left, ← goes to the next image (Next stands on the left) and → back', async () => {
    document.documentElement.dir = 'rtl';
    const { user } = renderWithProviders(<Viewer />);
    expect(screen.getByRole('dialog', { name: 'one.png' })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'two.png' })).toHaveTextContent('2 of 3');
    await user.keyboard('{ArrowRight}');
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'three.png' })).toHaveTextContent('3 of 3');
  });

  it('left to right, → goes to the next image', async () => {
    const { user } = renderWithProviders(<Viewer />);
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('dialog', { name: 'two.png' })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('dialog', { name: 'one.png' })).toBeInTheDocument();
  });
});
