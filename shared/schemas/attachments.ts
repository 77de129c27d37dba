import { Type, type Static } from 'typebox';
import { PersonSchema } from './comments.ts';

/** Where an attachment's bytes and thumbnail are served (one rule, for the server's JSON and the web app's tests). */
export const attachmentUrl = (id: string) => `/api/attachments/${encodeURIComponent(id)}`;
export const thumbnailUrl = (id: string) => `/api/attachments/${encodeURIComponent(id)}/thumbnail`;

/** The media types served inline (shown in the page); every other file is served as a download. */
export const INLINE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif'] as const;

export const AttachmentSchema = Type.Object({
  _id: Type.String({ description: 'Opaque identifier.' }),
  name: Type.String({ description: 'The file name it was uploaded with (shown, and given back on download).' }),
  size: Type.Integer({ minimum: 0, description: 'Bytes.' }),
  type: Type.String({ description: 'What the bytes are (a media type read from them, never from the name or the sent type); application/octet-stream when unknown.' }),
  width: Type.Optional(Type.Integer({ description: 'Images with a thumbnail only: pixels, as shown (orientation applied).' })),
  height: Type.Optional(Type.Integer({ description: 'Images with a thumbnail only.' })),
  url: Type.String({ description: 'The file: raster images inline, everything else as a download. Needs the right to see the task.' }),
  thumbnailUrl: Type.Optional(Type.String({ description: 'Images only: a WebP at most 480 px wide.' })),
  by: PersonSchema,
  createdAt: Type.String({ format: 'date-time' }),
});
export type Attachment = Static<typeof AttachmentSchema>;

/** A task's cover on its card: one of its images. */
export const CoverSchema = Type.Object({
  attachmentId: Type.String(),
  thumbnailUrl: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
});
export type Cover = Static<typeof CoverSchema>;

export const AttachmentParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 64 }),
  attachmentId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const AttachmentEnvelope = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  data: Type.Object({ attachment: AttachmentSchema }),
});

export const AttachmentListEnvelope = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ attachments: Type.Array(AttachmentSchema, { description: 'Newest first.' }) }),
});
