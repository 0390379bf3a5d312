/** Images for upload tests, made with pngjs: a solid PNG of any size. */
import { PNG } from 'pngjs';

export function png(width: number, height: number, rgba: [number, number, number, number] = [20, 80, 160, 255]): Buffer {
  const img = new PNG({ width, height });
  for (let i = 0; i < img.data.length; i += 4) img.data.set(rgba, i);
  return PNG.sync.write(img);
}
