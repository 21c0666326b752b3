/** GET /api/terms: the terms brands agree to, as Markdown (the client renders it without any HTML). */
export interface Terms {
  markdown: string;
}
