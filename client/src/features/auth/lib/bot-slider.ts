/** Size of the slider piece in image pixels (the hole is the same size). */
export const BOT_PIECE_SIZE = 40;

/**
 * The piece's left edge in image pixels from its left edge on screen: the picture may be drawn
 * narrower than its natural width. Clamped to the picture.
 */
export function toImageX(screenLeft: number, displayWidth: number, imageWidth: number, piece: number = BOT_PIECE_SIZE): number {
  if (displayWidth <= 0) return 0;
  const x = (screenLeft * imageWidth) / displayWidth;
  return Math.round(Math.min(Math.max(0, x), imageWidth - piece));
}

/** Where the piece may go on screen: from 0 to the picture's width less the piece. */
export function clampLeft(left: number, displayWidth: number, imageWidth: number, piece: number = BOT_PIECE_SIZE): number {
  const maxLeft = Math.max(0, displayWidth - (piece * displayWidth) / imageWidth);
  return Math.min(Math.max(0, left), maxLeft);
}

/** The piece's top edge in image pixels from its top edge on screen (the same scale as across). */
export function toImageY(screenTop: number, displayWidth: number, imageWidth: number, imageHeight: number, piece: number = BOT_PIECE_SIZE): number {
  if (displayWidth <= 0) return 0;
  const y = (screenTop * imageWidth) / displayWidth;
  return Math.round(Math.min(Math.max(0, y), imageHeight - piece));
}

/** Where the piece may go down on screen: from 0 to the picture's height less the piece. */
export function clampTop(top: number, displayWidth: number, imageWidth: number, imageHeight: number, piece: number = BOT_PIECE_SIZE): number {
  const maxTop = Math.max(0, ((imageHeight - piece) * displayWidth) / imageWidth);
  return Math.min(Math.max(0, top), maxTop);
}
