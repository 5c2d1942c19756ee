/**
 * A scanned PDF page's own picture, for OCR without drawing the page (D103): pdf.js decodes the
 * page's images itself (in JavaScript, no canvas: the reader loads no native addon), and the
 * largest one is handed to Tesseract as a PNM file (Netpbm's formats, which Leptonica reads
 * without a codec): black-and-white as PBM, grey as PGM, colour as PPM, the pixels as pdf.js gave
 * them. A scanner or a phone app makes one image a page, so its largest image is the page; what a
 * page draws in vector paths (text as outlines) or in its smaller images is not read by OCR.
 */
import { getResolvedPDFJS } from 'unpdf'

/** pdf.js's decoded image (`ImageKind`: 1 one bit a pixel, 1 white; 2 RGB; 3 RGBA). */
type DecodedImage = { width: number; height: number; kind?: number; data?: Uint8Array | Uint8ClampedArray }
type PdfPage = {
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }>
  objs: { get(name: string, callback: (image: unknown) => void): void }
  commonObjs: { get(name: string, callback: (image: unknown) => void): void }
}

const KIND = { bits: 1, rgb: 2, rgba: 3 } as const

/** The image a page paints, by the name its operator gives (page-level, or shared: `g_…`). */
function objectOf(page: PdfPage, name: string): Promise<unknown> {
  const objects = name.startsWith('g_') ? page.commonObjs : page.objs
  return new Promise((resolve) => objects.get(name, resolve))
}

/** The images a page paints (a mask's pixels come with its operator), decoded by pdf.js. */
async function imagesOf(page: PdfPage): Promise<DecodedImage[]> {
  const { OPS } = await getResolvedPDFJS()
  const { fnArray, argsArray } = await page.getOperatorList()
  const images: DecodedImage[] = []
  for (const [i, fn] of fnArray.entries()) {
    const [first] = argsArray[i] ?? []
    let image: unknown = null
    if (fn === OPS.paintImageXObject && typeof first === 'string') image = await objectOf(page, first)
    else if (fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) {
      image = fn === OPS.paintImageMaskXObject ? { ...(first as object), kind: KIND.bits } : first
    }
    const decoded = image as DecodedImage | null
    if (decoded?.data && decoded.width > 0 && decoded.height > 0) images.push(decoded)
  }
  return images
}

/** Netpbm's header: its magic number, the size, and the largest sample value (not for PBM). */
const header = (magic: string, { width, height }: DecodedImage) =>
  new TextEncoder().encode(`${magic}\n${width} ${height}\n${magic === 'P4' ? '' : '255\n'}`)

/** The image as a PNM file: pdf.js's rows are Netpbm's, bar the bit sense and the alpha. */
export function toPnm(image: DecodedImage): Uint8Array {
  const data = image.data as Uint8Array
  if (image.kind === KIND.rgb) return concat(header('P6', image), data)
  if (image.kind === KIND.bits) {
    // pdf.js: 1 is white; PBM: 1 is black. Rows are padded to a byte in both.
    const bits = new Uint8Array(data.length)
    for (let i = 0; i < data.length; i++) bits[i] = ~(data[i] as number) & 0xff
    return concat(header('P4', image), bits)
  }
  // RGBA, on white: a scan has no transparency worth keeping.
  const pixels = image.width * image.height
  const rgb = new Uint8Array(pixels * 3)
  for (let p = 0; p < pixels; p++) {
    const alpha = (data[p * 4 + 3] ?? 255) / 255
    for (let c = 0; c < 3; c++)
      rgb[p * 3 + c] = Math.round((data[p * 4 + c] ?? 0) * alpha + 255 * (1 - alpha))
  }
  return concat(header('P6', image), rgb)
}

function concat(head: Uint8Array, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(head.length + body.length)
  out.set(head)
  out.set(body, head.length)
  return out
}

/** The page's largest image as a PNM file, or null when it paints none (nothing to read by OCR). */
export async function pageImage(page: PdfPage): Promise<Uint8Array | null> {
  const images = await imagesOf(page)
  const largest = images.reduce<DecodedImage | null>(
    (best, image) => (!best || image.width * image.height > best.width * best.height ? image : best),
    null,
  )
  return largest && toPnm(largest)
}
