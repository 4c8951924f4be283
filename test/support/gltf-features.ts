/**
 * Small glTF assets that use the features real exports use, made with real encoders from npm: glTF-Transform with
 * draco3dgltf (Draco) and meshoptimizer (meshopt), ktx2-encoder (Basis Universal to KTX2), sharp (WebP, AVIF, PNG).
 * Each asset *requires* what it tests (`extensionsRequired`), so a runtime that lacks it cannot pretend to draw it.
 */
import { Document, NodeIO, type Material, type Primitive, type Texture } from '@gltf-transform/core';
import {
  ALL_EXTENSIONS,
  EXTMeshGPUInstancing,
  EXTTextureAVIF,
  EXTTextureWebP,
  KHRDracoMeshCompression,
  KHRLightsPunctual,
  KHRMaterialsAnisotropy,
  KHRMaterialsClearcoat,
  KHRMaterialsDispersion,
  KHRMaterialsEmissiveStrength,
  KHRMaterialsIOR,
  KHRMaterialsIridescence,
  KHRMaterialsSheen,
  KHRMaterialsSpecular,
  KHRMaterialsTransmission,
  KHRMaterialsUnlit,
  KHRMaterialsVariants,
  KHRMaterialsVolume,
  KHRMeshQuantization,
  KHRTextureBasisu,
  KHRTextureTransform,
} from '@gltf-transform/extensions';
import { draco, meshopt, quantize } from '@gltf-transform/functions';
import draco3d from 'draco3dgltf';
import { MeshoptEncoder } from 'meshoptimizer';
import sharp from 'sharp';

/** The colour a texture test looks for: no light on a white or untextured surface gives it. */
export const TEXTURE_GREEN = { r: 20, g: 190, b: 40 };
/** The colour the texture transform must hide. */
export const TEXTURE_RED = { r: 210, g: 30, b: 30 };

/** What a feature test expects to see once the asset is drawn. */
export interface FeatureAsset {
  /** The representation's file name stem and the object id's suffix. */
  name: string;
  /** What the asset shows. */
  description: string;
  /** The extensions the asset requires (its `extensionsRequired`), in any order. */
  requires: string[];
  /** A texture test: this colour must be drawn (it comes only from the texture). */
  mustShow?: 'green';
  /** ... and this one must not (the part of the texture a transform hides). */
  mustHide?: 'red';
  /** The model has animations, with these names. */
  animations?: string[];
  /** The model has material variants, with these names. */
  variants?: string[];
  bytes: Uint8Array;
}

async function io(): Promise<NodeIO> {
  return new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({
    'draco3d.encoder': await draco3d.createEncoderModule(),
    'draco3d.decoder': await draco3d.createDecoderModule(),
    'meshopt.encoder': MeshoptEncoder,
  });
}

/** A unit cube with normals and UVs (24 vertices, 12 triangles). */
function cube(doc: Document, material: Material): Primitive {
  const positions: number[] = [];
  const normals: number[] = [];
  const uvs: number[] = [];
  const indices: number[] = [];
  const faces: Array<{ n: [number, number, number]; u: [number, number, number]; v: [number, number, number] }> = [
    { n: [1, 0, 0], u: [0, 0, -1], v: [0, 1, 0] },
    { n: [-1, 0, 0], u: [0, 0, 1], v: [0, 1, 0] },
    { n: [0, 1, 0], u: [1, 0, 0], v: [0, 0, -1] },
    { n: [0, -1, 0], u: [1, 0, 0], v: [0, 0, 1] },
    { n: [0, 0, 1], u: [1, 0, 0], v: [0, 1, 0] },
    { n: [0, 0, -1], u: [-1, 0, 0], v: [0, 1, 0] },
  ];
  for (const { n, u, v } of faces) {
    const base = positions.length / 3;
    for (const [su, sv] of [[-1, -1], [1, -1], [1, 1], [-1, 1]] as const) {
      positions.push(...[0, 1, 2].map((i) => 0.5 * (n[i]! + su * u[i]! + sv * v[i]!)));
      normals.push(...n);
      uvs.push((su + 1) / 2, (1 - sv) / 2);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint16Array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  return doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', new Float32Array(positions)))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array(normals)))
    .setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array(uvs)))
    .setIndices(accessor('SCALAR', new Uint16Array(indices)))
    .setMaterial(material);
}

/** A document with one cube node in its default scene, and the cube's material. */
function cubeDocument(name: string, color: [number, number, number, number] = [0.9, 0.45, 0.1, 1]): { doc: Document; material: Material; primitive: Primitive } {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'aso-registry tests (glTF-Transform)';
  doc.createBuffer();
  const material = doc.createMaterial(name).setBaseColorFactor(color).setMetallicFactor(0).setRoughnessFactor(0.6);
  const primitive = cube(doc, material);
  const node = doc.createNode(name).setMesh(doc.createMesh(name).addPrimitive(primitive)).setRotation([0.2, 0.38, 0.08, 0.9]);
  doc.getRoot().setDefaultScene(doc.createScene(name).addChild(node));
  return { doc, material, primitive };
}

/** A 64x64 image: green, or red on the left half and green on the right half. */
async function textureImage(layout: 'green' | 'red-green', format: 'png' | 'webp' | 'avif'): Promise<Uint8Array> {
  const size = 64;
  const raw = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const c = layout === 'red-green' && x < size / 2 ? TEXTURE_RED : TEXTURE_GREEN;
      raw.set([c.r, c.g, c.b], (y * size + x) * 3);
    }
  }
  const image = sharp(raw, { raw: { width: size, height: size, channels: 3 } });
  const encoded = format === 'png' ? image.png() : format === 'webp' ? image.webp({ lossless: true }) : image.avif({ lossless: true });
  return new Uint8Array(await encoded.toBuffer());
}

/** A white material whose base colour comes from a texture: only the texture can make it green. */
async function texturedCube(name: string, layout: 'green' | 'red-green', format: 'png' | 'webp' | 'avif'): Promise<{ doc: Document; material: Material; texture: Texture }> {
  const { doc, material } = cubeDocument(name, [1, 1, 1, 1]);
  const mimeType = `image/${format}`;
  const texture = doc.createTexture(name).setImage(await textureImage(layout, format)).setMimeType(mimeType);
  material.setBaseColorTexture(texture);
  return { doc, material, texture };
}

/** Decodes raw RGBA for ktx2-encoder with sharp. */
async function decodeImage(buffer: Uint8Array): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { data, info } = await sharp(buffer).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** One material extension on the orange cube, required. */
async function materialAsset(name: string, extension: string, apply: (doc: Document, material: Material) => void): Promise<FeatureAsset> {
  const { doc, material } = cubeDocument(name);
  apply(doc, material);
  return { name, description: `a cube whose material uses ${extension}`, requires: [extension], bytes: await (await io()).writeBinary(doc) };
}

/** A two-bone skinned bar, bent by its second joint, with an animation. */
function skinnedDocument(name: string): Document {
  const { doc, primitive } = cubeDocument(name);
  const buffer = doc.getRoot().listBuffers()[0]!;
  const position = primitive.getAttribute('POSITION')!.getArray()!;
  const count = position.length / 3;
  const joints = new Uint16Array(count * 4);
  const weights = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    const upper = position[i * 3 + 1]! > 0;
    joints[i * 4] = upper ? 1 : 0;
    weights[i * 4] = 1;
  }
  primitive
    .setAttribute('JOINTS_0', doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(buffer))
    .setAttribute('WEIGHTS_0', doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buffer));
  const root = doc.createNode(`${name}-root`).setTranslation([0, -0.5, 0]);
  const tip = doc.createNode(`${name}-tip`).setTranslation([0, 0.5, 0]).setRotation([0, 0, 0.38, 0.92]);
  root.addChild(tip);
  // Inverse bind matrices: the joints' rest positions, translated back.
  const ibm = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0.5, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
  const skin = doc.createSkin(name).addJoint(root).addJoint(tip).setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
  const meshNode = doc.getRoot().listNodes().find((n) => n.getMesh())!;
  meshNode.setSkin(skin).setRotation([0, 0, 0, 1]);
  doc.getRoot().listScenes()[0]!.addChild(root);
  const times = doc.createAccessor().setType('SCALAR').setArray(new Float32Array([0, 1, 2])).setBuffer(buffer);
  const rotations = doc.createAccessor().setType('VEC4').setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0.5, 0.866, 0, 0, 0, 1])).setBuffer(buffer);
  const sampler = doc.createAnimationSampler().setInput(times).setOutput(rotations).setInterpolation('LINEAR');
  doc.createAnimation('Bend').addSampler(sampler).addChannel(doc.createAnimationChannel().setTargetNode(tip).setTargetPath('rotation').setSampler(sampler));
  return doc;
}

/** A cube with one morph target that pulls its top up, at full weight. */
function morphDocument(name: string): Document {
  const { doc, primitive } = cubeDocument(name);
  const buffer = doc.getRoot().listBuffers()[0]!;
  const position = primitive.getAttribute('POSITION')!.getArray()!;
  const delta = new Float32Array(position.length);
  for (let i = 0; i < position.length / 3; i++) if (position[i * 3 + 1]! > 0) delta[i * 3 + 1] = 0.6;
  const target = doc.createPrimitiveTarget('stretch').setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(delta).setBuffer(buffer));
  primitive.addTarget(target);
  doc.getRoot().listMeshes()[0]!.setWeights([1]);
  return doc;
}

/** A spinning cube with two named animations. */
function animatedDocument(name: string): Document {
  const { doc } = cubeDocument(name);
  const buffer = doc.getRoot().listBuffers()[0]!;
  const node = doc.getRoot().listNodes()[0]!;
  const times = doc.createAccessor().setType('SCALAR').setArray(new Float32Array([0, 1, 2, 3, 4])).setBuffer(buffer);
  const quarter = (k: number): number[] => [0, Math.sin((k * Math.PI) / 4), 0, Math.cos((k * Math.PI) / 4)];
  const spin = doc.createAccessor().setType('VEC4').setArray(new Float32Array([0, 1, 2, 3, 4].flatMap(quarter))).setBuffer(buffer);
  const spinSampler = doc.createAnimationSampler().setInput(times).setOutput(spin).setInterpolation('LINEAR');
  doc.createAnimation('Spin').addSampler(spinSampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('rotation').setSampler(spinSampler));
  const scale = doc.createAccessor().setType('VEC3').setArray(new Float32Array([1, 1, 1, 1.5, 1.5, 1.5, 1, 1, 1, 0.7, 0.7, 0.7, 1, 1, 1])).setBuffer(buffer);
  const pulseSampler = doc.createAnimationSampler().setInput(times).setOutput(scale).setInterpolation('LINEAR');
  doc.createAnimation('Pulse').addSampler(pulseSampler).addChannel(doc.createAnimationChannel().setTargetNode(node).setTargetPath('scale').setSampler(pulseSampler));
  return doc;
}

/** Every feature asset, one per supported extension at least, plus skins, morph targets and animation. */
export async function featureAssets(): Promise<FeatureAsset[]> {
  const nodeIO = await io();
  const out: FeatureAsset[] = [];
  const glb = (doc: Document) => nodeIO.writeBinary(doc);

  {
    const { doc } = cubeDocument('draco');
    doc.createExtension(KHRDracoMeshCompression).setRequired(true);
    await doc.transform(draco({ method: 'edgebreaker' }));
    out.push({ name: 'draco', description: 'a Draco-compressed cube', requires: ['KHR_draco_mesh_compression'], bytes: await glb(doc) });
  }
  {
    const { doc } = cubeDocument('meshopt');
    await MeshoptEncoder.ready;
    await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
    doc.getRoot().listExtensionsUsed().find((e) => e.extensionName === 'EXT_meshopt_compression')!.setRequired(true);
    out.push({ name: 'meshopt', description: 'a meshopt-compressed, quantized cube', requires: ['EXT_meshopt_compression', 'KHR_mesh_quantization'], bytes: await glb(doc) });
  }
  {
    const { doc } = cubeDocument('quantized');
    await doc.transform(quantize());
    doc.createExtension(KHRMeshQuantization).setRequired(true);
    out.push({ name: 'quantization', description: 'a cube with quantized attributes', requires: ['KHR_mesh_quantization'], bytes: await glb(doc) });
  }
  {
    const { doc } = await texturedCube('ktx2', 'green', 'png');
    const { ktx2 } = await import('ktx2-encoder/gltf-transform');
    await doc.transform(ktx2({ isUASTC: false, generateMipmap: true, imageDecoder: decodeImage }));
    const ext = doc.getRoot().listExtensionsUsed().find((e) => e.extensionName === 'KHR_texture_basisu') ?? doc.createExtension(KHRTextureBasisu);
    ext.setRequired(true);
    if (doc.getRoot().listTextures()[0]!.getMimeType() !== 'image/ktx2') throw new Error('ktx2-encoder did not encode the texture');
    out.push({ name: 'ktx2', description: 'a cube with a Basis Universal (KTX2) green texture', requires: ['KHR_texture_basisu'], mustShow: 'green', bytes: await glb(doc) });
  }
  {
    const { doc } = await texturedCube('webp', 'green', 'webp');
    doc.createExtension(EXTTextureWebP).setRequired(true);
    out.push({ name: 'webp', description: 'a cube with a WebP green texture', requires: ['EXT_texture_webp'], mustShow: 'green', bytes: await glb(doc) });
  }
  {
    const { doc } = await texturedCube('avif', 'green', 'avif');
    doc.createExtension(EXTTextureAVIF).setRequired(true);
    out.push({ name: 'avif', description: 'a cube with an AVIF green texture', requires: ['EXT_texture_avif'], mustShow: 'green', bytes: await glb(doc) });
  }
  {
    const { doc, material } = await texturedCube('transform', 'red-green', 'png');
    const ext = doc.createExtension(KHRTextureTransform).setRequired(true);
    // Only the right (green) half of the texture is mapped onto each face.
    material.getBaseColorTextureInfo()!.setExtension('KHR_texture_transform', ext.createTransform().setOffset([0.5, 0]).setScale([0.5, 1]));
    out.push({
      name: 'texture-transform',
      description: 'a cube whose red-and-green texture a transform narrows to its green half',
      requires: ['KHR_texture_transform'],
      mustShow: 'green',
      mustHide: 'red',
      bytes: await glb(doc),
    });
  }
  out.push(
    await materialAsset('emissive-strength', 'KHR_materials_emissive_strength', (doc, m) => {
      m.setEmissiveFactor([0.1, 1, 0.2]);
      m.setExtension('KHR_materials_emissive_strength', doc.createExtension(KHRMaterialsEmissiveStrength).setRequired(true).createEmissiveStrength().setEmissiveStrength(4));
    }),
    await materialAsset('clearcoat', 'KHR_materials_clearcoat', (doc, m) => {
      m.setExtension('KHR_materials_clearcoat', doc.createExtension(KHRMaterialsClearcoat).setRequired(true).createClearcoat().setClearcoatFactor(1).setClearcoatRoughnessFactor(0.1));
    }),
    await materialAsset('transmission', 'KHR_materials_transmission', (doc, m) => {
      m.setExtension('KHR_materials_transmission', doc.createExtension(KHRMaterialsTransmission).setRequired(true).createTransmission().setTransmissionFactor(0.6));
    }),
    await materialAsset('volume', 'KHR_materials_volume', (doc, m) => {
      m.setExtension('KHR_materials_transmission', doc.createExtension(KHRMaterialsTransmission).createTransmission().setTransmissionFactor(0.6));
      m.setExtension('KHR_materials_volume', doc.createExtension(KHRMaterialsVolume).setRequired(true).createVolume().setThicknessFactor(0.5).setAttenuationColor([0.9, 0.3, 0.1]).setAttenuationDistance(0.5));
    }),
    await materialAsset('ior', 'KHR_materials_ior', (doc, m) => {
      m.setExtension('KHR_materials_ior', doc.createExtension(KHRMaterialsIOR).setRequired(true).createIOR().setIOR(1.8));
    }),
    await materialAsset('sheen', 'KHR_materials_sheen', (doc, m) => {
      m.setExtension('KHR_materials_sheen', doc.createExtension(KHRMaterialsSheen).setRequired(true).createSheen().setSheenColorFactor([1, 0.2, 0.8]).setSheenRoughnessFactor(0.5));
    }),
    await materialAsset('specular', 'KHR_materials_specular', (doc, m) => {
      m.setExtension('KHR_materials_specular', doc.createExtension(KHRMaterialsSpecular).setRequired(true).createSpecular().setSpecularFactor(0.8).setSpecularColorFactor([1, 0.9, 0.5]));
    }),
    await materialAsset('iridescence', 'KHR_materials_iridescence', (doc, m) => {
      m.setExtension('KHR_materials_iridescence', doc.createExtension(KHRMaterialsIridescence).setRequired(true).createIridescence().setIridescenceFactor(1).setIridescenceIOR(1.3));
    }),
    await materialAsset('anisotropy', 'KHR_materials_anisotropy', (doc, m) => {
      m.setExtension('KHR_materials_anisotropy', doc.createExtension(KHRMaterialsAnisotropy).setRequired(true).createAnisotropy().setAnisotropyStrength(0.8).setAnisotropyRotation(0.5));
    }),
    await materialAsset('dispersion', 'KHR_materials_dispersion', (doc, m) => {
      m.setExtension('KHR_materials_transmission', doc.createExtension(KHRMaterialsTransmission).createTransmission().setTransmissionFactor(0.6));
      m.setExtension('KHR_materials_volume', doc.createExtension(KHRMaterialsVolume).createVolume().setThicknessFactor(0.5));
      m.setExtension('KHR_materials_dispersion', doc.createExtension(KHRMaterialsDispersion).setRequired(true).createDispersion().setDispersion(0.5));
    }),
    await materialAsset('unlit', 'KHR_materials_unlit', (doc, m) => {
      m.setBaseColorFactor([0.08, 0.75, 0.16, 1]);
      m.setExtension('KHR_materials_unlit', doc.createExtension(KHRMaterialsUnlit).setRequired(true).createUnlit());
    }),
  );
  {
    const { doc } = cubeDocument('lights');
    const ext = doc.createExtension(KHRLightsPunctual).setRequired(true);
    const light = doc.createNode('light').setTranslation([1, 2, 2]).setExtension('KHR_lights_punctual', ext.createLight('spot').setType('point').setIntensity(20).setColor([0.2, 1, 0.3]));
    doc.getRoot().listScenes()[0]!.addChild(light);
    out.push({ name: 'lights', description: 'a cube lit by a point light', requires: ['KHR_lights_punctual'], bytes: await glb(doc) });
  }
  {
    const { doc, material, primitive } = cubeDocument('variants');
    const ext = doc.createExtension(KHRMaterialsVariants).setRequired(true);
    const green = doc.createMaterial('green').setBaseColorFactor([0.08, 0.75, 0.16, 1]);
    const mappings = ext
      .createMappingList()
      .addMapping(ext.createMapping().setMaterial(green).addVariant(ext.createVariant('Green')))
      .addMapping(ext.createMapping().setMaterial(material).addVariant(ext.createVariant('Orange')));
    primitive.setExtension('KHR_materials_variants', mappings);
    out.push({ name: 'variants', description: 'a cube with an orange and a green material variant', requires: ['KHR_materials_variants'], variants: ['Green', 'Orange'], bytes: await glb(doc) });
  }
  {
    const { doc } = cubeDocument('instancing');
    const buffer = doc.getRoot().listBuffers()[0]!;
    const ext = doc.createExtension(EXTMeshGPUInstancing).setRequired(true);
    const translations = doc.createAccessor().setType('VEC3').setArray(new Float32Array([-1.2, 0, 0, 0, 0, 0, 1.2, 0, 0])).setBuffer(buffer);
    doc.getRoot().listNodes()[0]!.setExtension('EXT_mesh_gpu_instancing', ext.createInstancedMesh().setAttribute('TRANSLATION', translations));
    out.push({ name: 'instancing', description: 'three instances of a cube (GPU instancing)', requires: ['EXT_mesh_gpu_instancing'], bytes: await glb(doc) });
  }
  out.push(
    { name: 'skin', description: 'a skinned cube bent by its second joint, with an animation', requires: [], animations: ['Bend'], bytes: await glb(skinnedDocument('skin')) },
    { name: 'morph', description: 'a cube stretched by a morph target', requires: [], bytes: await glb(morphDocument('morph')) },
    { name: 'animated', description: 'a cube with two animations', requires: [], animations: ['Spin', 'Pulse'], bytes: await glb(animatedDocument('animated')) },
  );
  return out;
}

/** A valid GLB that requires an extension no runtime knows. */
export async function unknownExtensionAsset(name: string): Promise<Uint8Array> {
  const { doc } = cubeDocument('unknown');
  const glb = await (await io()).writeBinary(doc);
  // Rewrite the JSON chunk: glTF-Transform writes only extensions it knows.
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  json.extensionsUsed = [name];
  json.extensionsRequired = [name];
  let text = JSON.stringify(json);
  while (text.length % 4) text += ' ';
  const jsonBytes = new TextEncoder().encode(text);
  const rest = glb.subarray(20 + jsonLength);
  const out = new Uint8Array(20 + jsonBytes.length + rest.length);
  const w = new DataView(out.buffer);
  w.setUint32(0, 0x46546c67, true);
  w.setUint32(4, 2, true);
  w.setUint32(8, out.length, true);
  w.setUint32(12, jsonBytes.length, true);
  w.setUint32(16, 0x4e4f534a, true);
  out.set(jsonBytes, 20);
  out.set(rest, 20 + jsonBytes.length);
  return out;
}
