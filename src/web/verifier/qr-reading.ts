/** Reading a QR code from a photo or from the camera, with jsQR (no browser needs a barcode API for it). */
import jsQR from 'jsqr';

/** Photos are read at most this wide: a phone's 12 MP photo would take seconds, and the code stays readable. */
const MAX_SIDE = 2000;

function readCanvas(canvas: HTMLCanvasElement, width: number, height: number): string | null {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return null;
  const pixels = ctx.getImageData(0, 0, width, height);
  return jsQR(pixels.data, width, height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}

/** The text of the QR code in an image file, or null when none is found. */
export async function readPhoto(file: Blob): Promise<string | null> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.round(bitmap.width * scale);
  const height = Math.round(bitmap.height * scale);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return readCanvas(canvas, width, height);
}

/**
 * Reads frames of the back camera into `video` until a code is found (then stops the camera and calls
 * `found`). Answers a function that stops it; throws when the camera cannot be opened.
 */
export async function scanCamera(video: HTMLVideoElement, found: (text: string) => void): Promise<() => void> {
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
  video.srcObject = stream;
  video.setAttribute('playsinline', '');
  await video.play();
  const canvas = document.createElement('canvas');
  let stopped = false;
  let timer = 0;
  const stop = () => {
    stopped = true;
    clearTimeout(timer);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };
  const tick = () => {
    if (stopped) return;
    const width = video.videoWidth;
    const height = video.videoHeight;
    if (width && height) {
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d', { willReadFrequently: true })?.drawImage(video, 0, 0, width, height);
      const text = readCanvas(canvas, width, height);
      if (text) {
        stop();
        found(text);
        return;
      }
    }
    // A few frames a second: enough to catch a steady code without heating the phone.
    timer = window.setTimeout(tick, 150);
  };
  tick();
  return stop;
}
