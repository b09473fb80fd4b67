// Tandem's viewer page: the scene (once), the state (on change), the status (HUD, controls) and
// TPF1 pose frames (binary) over one WebSocket; see io.tandem.cli.view.ViewerServer.
// window.tandem is the automation hook (README, "The viewer").
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const T = window.tandem = {
  connected: false, mode: 'live', world: null,
  iteration: 0, simTimeS: 0, paused: false, ended: null,
  bodies: 0, models: [], loaded: [], levels: [], owners: {}, peers: [],
  batched: 0, frames: 0, renderedFrames: 0, drawnIteration: -1, fps: 0, rtf: null, follow: null, notice: null, replay: null,
  spikes: 0, signalsTimeS: null, plots: {},
  send(op, value) { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ op, value: value ?? 0 })); },
  // a rendered entity's pose, by 'model::link': [x, y, z, qx, qy, qz, qw] (world frame, m)
  pose(name) { const e = byName.get(name); return e && e.visible ? e.pose.slice() : null; },
  poses() { const o = {}; for (const e of ents) if (e.visible) o[e.model + '::' + e.link] = e.pose.slice(); return o; },
  // the deformable bodies' meshes as last drawn: model, triangles, visible, the first vertex
  surfaces() {
    return surfaces.map((sf) => ({ model: sf.nodes[0] ? sf.nodes[0].model : null, triangles: sf.mesh.geometry.index.count / 3,
      visible: sf.mesh.visible, first: Array.from(sf.mesh.geometry.attributes.position.array.slice(0, 3)) }));
  },
};

const $ = (id) => document.getElementById(id);
const canvas = $('view');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
// software GL (SwiftShader, llvmpipe: no GPU, as in headless browsers) shades every pixel, and composites
// every frame, on the CPUs the simulation runs on: there the page draws at half resolution (a quarter of
// the pixels), at most 30 frames/s, lit per vertex (VertexLitMaterial), and shared visuals merged into one
// draw (BatchedCopies). Measured on 2 cores, Chromium's own work per drawn frame was about 12 ms there, so 60
// frames/s took most of a core; per-pixel lighting and sRGB encoding were most of the rest. ?fps=N sets the
// cap on any GL (0: none), ?lighting=vertex|pixel the lighting, ?batch=0|1 the merging (vertex lighting
// only), ?quality=full lifts all four.
{
  const gl = renderer.getContext();
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  T.glRenderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
  T.softwareGL = /swiftshader|llvmpipe|softpipe|software/i.test(T.glRenderer);
  const params = new URLSearchParams(location.search);
  const full = params.get('quality') === 'full';
  renderer.setPixelRatio(T.softwareGL && !full ? 0.5 : Math.min(window.devicePixelRatio || 1, 2));
  const fps = params.has('fps') ? Number(params.get('fps')) : NaN;
  T.maxFps = Number.isFinite(fps) && fps >= 0 ? fps : (T.softwareGL && !full ? 30 : 0);
  const lit = params.get('lighting');
  T.vertexLit = lit === 'vertex' || (lit !== 'pixel' && T.softwareGL && !full);
  // ?batch=0|1: shared visuals drawn as one merged geometry (BatchedCopies) or as three.js's InstancedMesh
  const batch = params.get('batch');
  T.batching = T.vertexLit && (batch === '1' || (batch !== '0' && T.softwareGL));
}
const scene3 = new THREE.Scene();
scene3.background = new THREE.Color(0x2a3038);
const camera = new THREE.PerspectiveCamera(50, 1, 0.05, 2000);
camera.up.set(0, 0, 1);
camera.position.set(6, -9, 6);
const controls = new OrbitControls(camera, canvas);
controls.target.set(0, 0, 0.5);
controls.update();
const hemi = new THREE.HemisphereLight(0xffffff, 0x404850, 2.0);
scene3.add(hemi);
const sun = new THREE.DirectionalLight(0xffffff, 1.6);
sun.position.set(4, -6, 10);
scene3.add(sun);
const grid = new THREE.GridHelper(40, 40, 0x56606b, 0x3a424b);
grid.rotation.x = Math.PI / 2;
scene3.add(grid);
const overlays = new THREE.Group();
scene3.add(overlays);

let ents = [];              // by entity id: { model, link, static, visible, pose, group, inst: [{ mesh, index, local }] }
let byName = new Map();     // 'model::link' -> entity
let firstOfModel = new Map();
let instanced = [];          // what the scene draws for the shared visuals: InstancedMesh or BatchedCopies' mesh
let batches = [];           // BatchedCopies, their textures refreshed before each draw
let levelBoxes = [];        // { name, box, buffer }
let performerBoxes = [];    // { model, box }
let surfaces = [];          // a deformable body's boundary: { mesh, nodes (entities by node index), stamp }
let sceneJson = null;
const tmpM = new THREE.Matrix4(), tmpE = new THREE.Matrix4(), tmpP = new THREE.Vector3(), tmpQ = new THREE.Quaternion();
const one = new THREE.Vector3(1, 1, 1), zeroM = new THREE.Matrix4().makeScale(0, 0, 0);
const OWNER_COLOURS = [0x42a5f5, 0xffa726, 0xab47bc, 0x26a69a, 0xef5350, 0xd4e157, 0x8d6e63, 0x78909c];

function geometry(g) {
  switch (g.type) {
    case 'box': return new THREE.BoxGeometry(g.size[0], g.size[1], g.size[2]);
    case 'sphere': return new THREE.SphereGeometry(g.radius, 18, 12);
    case 'cylinder': return new THREE.CylinderGeometry(g.radius, g.radius, g.length, 24).rotateX(Math.PI / 2);
    case 'capsule': return new THREE.CapsuleGeometry(g.radius, g.length, 4, 14).rotateX(Math.PI / 2);
    case 'plane': {
      const p = new THREE.PlaneGeometry(g.size[0] > 0 ? g.size[0] : 100, g.size[1] > 0 ? g.size[1] : 100);
      const q = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 0, 1), new THREE.Vector3(...g.normal).normalize());
      return p.applyQuaternion(q);
    }
    case 'mesh': {
      const b = new THREE.BufferGeometry();
      b.setAttribute('position', new THREE.BufferAttribute(new Float32Array(g.positions), 3));
      b.setIndex(new THREE.BufferAttribute(new Uint32Array(g.indices), 1));
      b.computeVertexNormals();
      return b;
    }
    default: return new THREE.BoxGeometry(0.1, 0.1, 0.1);
  }
}

// Lambert shading: a fraction of the physically based material's per-pixel cost. On software GL
// (SwiftShader: headless browsers, machines without a GPU) even Lambert's per-pixel lighting and sRGB
// encoding are most of a frame, so there both are done per vertex (VertexLitMaterial).
function material(rgba, plane) {
  const colour = new THREE.Color(rgba[0], rgba[1], rgba[2]);
  const side = plane ? THREE.DoubleSide : THREE.FrontSide;
  if (T.vertexLit) return new VertexLitMaterial(colour, rgba[3], side);
  return new THREE.MeshLambertMaterial({ color: colour, transparent: rgba[3] < 1, opacity: rgba[3], side });
}

/**
 * Lambert's diffuse reflection of the scene's two lights (the hemisphere light and the sun, both fixed),
 * computed per vertex (Gouraud) with the sRGB encoding, so a pixel costs one interpolation: three.js's
 * MeshLambertMaterial does both per pixel. Same terms as three.js's Lambert (r181: irradiance times
 * diffuse / pi, plus emissive), so flat faces look the same; curved ones differ inside a triangle.
 * Has MeshLambertMaterial's color, emissive and emissiveIntensity; instance colours multiply color.
 */
class VertexLitMaterial extends THREE.ShaderMaterial {
  constructor(colour, opacity, side) {
    const sunDir = sun.position.clone().sub(sun.target.position).normalize();
    super({
      uniforms: {
        diffuse: { value: colour }, emissive: { value: new THREE.Color(0, 0, 0) }, emissiveIntensity: { value: 0 },
        opacity: { value: opacity },
        skyColour: { value: hemi.color.clone().multiplyScalar(hemi.intensity) },
        groundColour: { value: hemi.groundColor.clone().multiplyScalar(hemi.intensity) },
        hemiDir: { value: hemi.position.clone().normalize() },
        sunColour: { value: sun.color.clone().multiplyScalar(sun.intensity) }, sunDir: { value: sunDir },
      },
      vertexShader: VERTEX_LIT_VS, fragmentShader: VERTEX_LIT_FS, transparent: opacity < 1, opacity, side,
    });
  }
  get color() { return this.uniforms.diffuse.value; }
  get emissive() { return this.uniforms.emissive.value; }
  get emissiveIntensity() { return this.uniforms.emissiveIntensity.value; }
  set emissiveIntensity(v) { this.uniforms.emissiveIntensity.value = v; }
}
const VERTEX_LIT_VS = `
uniform vec3 diffuse, emissive, skyColour, groundColour, hemiDir, sunColour, sunDir;
uniform float emissiveIntensity, opacity;
#ifdef BATCHED
attribute float copyIndex;
uniform highp sampler2D copyMatrices, copyColours;
#endif
varying vec4 vFront;
#ifdef DOUBLE_SIDED
varying vec4 vBack;
#endif
vec3 encode(vec3 c) { // linear to sRGB, as three.js's sRGBTransferOETF
  return mix(pow(c, vec3(0.41666)) * 1.055 - vec3(0.055), c * 12.92, vec3(lessThanEqual(c, vec3(0.0031308))));
}
vec4 lit(vec3 n, vec3 d) {
  vec3 irradiance = mix(groundColour, skyColour, 0.5 * dot(n, hemiDir) + 0.5) + max(dot(n, sunDir), 0.0) * sunColour;
  return vec4(encode(clamp(irradiance * d * 0.3183098861837907 + emissive * emissiveIntensity, 0.0, 1.0)), opacity);
}
void main() {
  mat4 m = modelMatrix;
#ifdef USE_INSTANCING
  m = m * instanceMatrix;
#endif
  vec3 d = diffuse;
#ifdef USE_INSTANCING_COLOR
  d *= instanceColor;
#endif
#ifdef BATCHED
  // this vertex's copy: its matrix, four texels (columns) of a row of BATCH_ROW copies, and its colour
  int c = int(copyIndex + 0.5);
  ivec2 at = ivec2(c % BATCH_ROW * 4, c / BATCH_ROW);
  m = m * mat4(texelFetch(copyMatrices, at, 0), texelFetch(copyMatrices, at + ivec2(1, 0), 0),
      texelFetch(copyMatrices, at + ivec2(2, 0), 0), texelFetch(copyMatrices, at + ivec2(3, 0), 0));
  d *= texelFetch(copyColours, ivec2(c % BATCH_ROW, c / BATCH_ROW), 0).rgb;
#endif
  vec3 n = normalize(mat3(m) * normal);
  vFront = lit(n, d);
#ifdef DOUBLE_SIDED
  vBack = lit(-n, d);
#endif
  gl_Position = projectionMatrix * viewMatrix * m * vec4(position, 1.0);
}`;
const VERTEX_LIT_FS = `
varying vec4 vFront;
#ifdef DOUBLE_SIDED
varying vec4 vBack;
#endif
void main() {
#ifdef DOUBLE_SIDED
  gl_FragColor = gl_FrontFacing ? vFront : vBack;
#else
  gl_FragColor = vFront;
#endif
}`;

/**
 * An InstancedMesh's copies drawn as one merged geometry: each vertex carries the index of its copy,
 * whose matrix and colour the vertex shader reads from two float textures. SwiftShader runs an
 * instanced draw as one draw per instance: 1,000 boxes took it about 50 ms of CPU a frame, the same
 * boxes merged into one draw about 13 ms (a WebGL2 page of each, headless Chromium, 2 cores). The
 * InstancedMesh keeps the matrices and colours (setMatrixAt, setColorAt) and is not drawn; its
 * arrays are copied to the textures when their versions change. Vertex-lit materials only.
 */
const BATCH_ROW = 256;
class BatchedCopies {
  /** @return whether copies of geometry g are merged rather than instanced (at most 2^20 vertices in all) */
  static fits(g, n) { return g.index !== null && g.attributes.normal !== undefined && g.attributes.position.count * n <= 1 << 20; }

  constructor(inst) {
    const n = inst.count, g = inst.geometry;
    const pos = g.attributes.position.array, nor = g.attributes.normal.array, idx = g.index.array;
    const v = g.attributes.position.count, k = idx.length;
    const P = new Float32Array(3 * v * n), N = new Float32Array(3 * v * n), C = new Float32Array(v * n);
    const I = new Uint32Array(k * n);
    for (let c = 0; c < n; c++) {
      P.set(pos, 3 * v * c); N.set(nor, 3 * v * c); C.fill(c, v * c, v * (c + 1));
      for (let j = 0; j < k; j++) I[k * c + j] = idx[j] + v * c;
    }
    const merged = new THREE.BufferGeometry();
    merged.setAttribute('position', new THREE.BufferAttribute(P, 3));
    merged.setAttribute('normal', new THREE.BufferAttribute(N, 3));
    merged.setAttribute('copyIndex', new THREE.BufferAttribute(C, 1));
    merged.setIndex(new THREE.BufferAttribute(I, 1));
    const rows = Math.ceil(n / BATCH_ROW);
    this.inst = inst;
    this.matrices = new THREE.DataTexture(new Float32Array(16 * BATCH_ROW * rows), 4 * BATCH_ROW, rows, THREE.RGBAFormat,
      THREE.FloatType);
    this.colours = new THREE.DataTexture(new Float32Array(4 * BATCH_ROW * rows), BATCH_ROW, rows, THREE.RGBAFormat,
      THREE.FloatType);
    this.matrixVersion = -1; this.colourVersion = -1;
    const mat = inst.material;
    mat.defines.BATCHED = '';
    mat.defines.BATCH_ROW = BATCH_ROW;
    mat.uniforms.copyMatrices = { value: this.matrices };
    mat.uniforms.copyColours = { value: this.colours };
    this.mesh = new THREE.Mesh(merged, mat);
    this.mesh.frustumCulled = false; // its positions are the copies' own, not where they are drawn
    this.sync();
  }

  /** The matrices and colours set since the last draw, to the textures. */
  sync() {
    const im = this.inst.instanceMatrix;
    if (im.version !== this.matrixVersion) {
      this.matrixVersion = im.version;
      this.matrices.image.data.set(im.array);
      this.matrices.needsUpdate = true;
    }
    const ic = this.inst.instanceColor;
    if (ic && ic.version !== this.colourVersion) {
      this.colourVersion = ic.version;
      const rgba = this.colours.image.data, rgb = ic.array;
      for (let c = 0; c < this.inst.count; c++) {
        rgba[4 * c] = rgb[3 * c]; rgba[4 * c + 1] = rgb[3 * c + 1]; rgba[4 * c + 2] = rgb[3 * c + 2]; rgba[4 * c + 3] = 1;
      }
      this.colours.needsUpdate = true;
    }
  }

  dispose() {
    this.mesh.geometry.dispose(); this.matrices.dispose(); this.colours.dispose();
  }
}

function localMatrix(p) {
  return new THREE.Matrix4().compose(new THREE.Vector3(p[0], p[1], p[2]), new THREE.Quaternion(p[3], p[4], p[5], p[6]), one);
}

function clearScene() {
  for (const e of ents) if (e.group) scene3.remove(e.group);
  for (const m of instanced) scene3.remove(m);
  for (const b of batches) b.dispose();
  for (const sf of surfaces) { scene3.remove(sf.mesh); sf.mesh.geometry.dispose(); }
  overlays.clear();
  ents = []; byName = new Map(); firstOfModel = new Map(); instanced = []; batches = []; T.batched = 0; levelBoxes = []; performerBoxes = []; surfaces = [];
}

// the scene: one entity per link; visuals shared by 16 or more entities are drawn instanced
function buildScene(s) {
  clearScene();
  sceneJson = s;
  T.world = s.world;
  T.models = s.models.map((m) => m.name);
  $('title').textContent = 'Tandem: ' + s.world;
  const bySig = new Map();
  for (const e of s.entities) {
    for (const v of e.visuals) {
      if (v.geometry.type === 'mesh' || v.geometry.type === 'plane') continue;
      const sig = JSON.stringify([v.geometry, v.rgba, v.pose]);
      bySig.set(sig, (bySig.get(sig) || 0) + 1);
    }
  }
  const inst = new Map();
  for (const [sig, n] of bySig) {
    if (n < 16) continue;
    const [g, rgba, pose] = JSON.parse(sig);
    const mesh = new THREE.InstancedMesh(geometry(g), material(rgba, false), n);
    mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
    mesh.frustumCulled = false;
    for (let i = 0; i < n; i++) mesh.setMatrixAt(i, zeroM);
    mesh.setColorAt(0, new THREE.Color(1, 1, 1));
    for (let i = 0; i < n; i++) mesh.setColorAt(i, new THREE.Color(1, 1, 1));
    let drawn = mesh;
    if (T.batching && BatchedCopies.fits(mesh.geometry, n)) {
      const b = new BatchedCopies(mesh);
      batches.push(b);
      drawn = b.mesh;
    }
    scene3.add(drawn);
    instanced.push(drawn);
    T.batched = batches.length;
    inst.set(sig, { mesh, next: 0, local: localMatrix(pose) });
  }
  for (const e of s.entities) {
    const ent = { id: e.id, model: e.model, link: e.link, static: e.static, visible: false, pose: [0, 0, 0, 0, 0, 0, 1],
      group: null, inst: [], mats: [] };
    for (const v of e.visuals) {
      const sig = v.geometry.type === 'mesh' || v.geometry.type === 'plane' ? null : JSON.stringify([v.geometry, v.rgba, v.pose]);
      const slot = sig && inst.get(sig);
      if (slot) {
        ent.inst.push({ mesh: slot.mesh, index: slot.next++, local: slot.local });
      } else {
        if (!ent.group) { ent.group = new THREE.Group(); ent.group.visible = false; scene3.add(ent.group); }
        const mat = material(v.rgba, v.geometry.type === 'plane');
        const m = new THREE.Mesh(geometry(v.geometry), mat);
        m.applyMatrix4(localMatrix(v.pose));
        ent.group.add(m);
        ent.mats.push(mat);
      }
    }
    ents[e.id] = ent;
    byName.set(e.model + '::' + e.link, ent);
    if (!firstOfModel.has(e.model)) firstOfModel.set(e.model, ent);
  }
  // a deformable body: one mesh whose vertices are its nodes' positions, moved in render()
  for (const sf of s.surfaces || []) {
    const nodes = [];
    for (const e of ents) if (e && e.model === sf.model) nodes[Number(e.link)] = e;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * nodes.length), 3).setUsage(THREE.DynamicDrawUsage));
    g.setIndex(sf.triangles);
    const mesh = new THREE.Mesh(g, material(sf.rgba, false));
    mesh.frustumCulled = false;
    mesh.visible = false;
    scene3.add(mesh);
    surfaces.push({ mesh, nodes, stamp: -1 });
  }
  for (const l of s.levels) {
    const box = edges(l.size, 0x9e9e9e);
    box.position.set(...l.center);
    const buf = edges(l.size.map((x) => x + 2 * l.buffer), 0x616161);
    buf.position.set(...l.center);
    buf.material.transparent = true; buf.material.opacity = 0.45;
    overlays.add(box, buf);
    levelBoxes.push({ name: l.name, box, buffer: buf });
  }
  for (const p of s.performers) {
    const box = edges(p.size, 0xffee58);
    box.visible = false;
    overlays.add(box);
    performerBoxes.push({ model: p.model, box });
  }
  const follow = $('follow');
  follow.length = 1;
  for (const m of s.models) if (!m.static) follow.add(new Option(m.name, m.name));
  if (T.follow) follow.value = T.follow;
  applyState();
}

function edges(size, colour) {
  const g = new THREE.EdgesGeometry(new THREE.BoxGeometry(size[0], size[1], size[2]));
  return new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color: colour }));
}

let state = null;
let lastFrame = null;

function placeEntity(e, x, y, z, qx, qy, qz, qw) {
  const p = e.pose;
  p[0] = x; p[1] = y; p[2] = z; p[3] = qx; p[4] = qy; p[5] = qz; p[6] = qw;
  if (e.group) { e.group.position.set(x, y, z); e.group.quaternion.set(qx, qy, qz, qw); }
  if (e.inst.length) {
    tmpE.compose(tmpP.set(x, y, z), tmpQ.set(qx, qy, qz, qw), one);
    for (const i of e.inst) { i.mesh.setMatrixAt(i.index, tmpM.multiplyMatrices(tmpE, i.local)); i.mesh.instanceMatrix.needsUpdate = true; }
  }
}

function setVisible(e, visible) {
  if (e.visible === visible) return;
  e.visible = visible;
  if (e.group) e.group.visible = visible;
  if (!visible) for (const i of e.inst) { i.mesh.setMatrixAt(i.index, zeroM); i.mesh.instanceMatrix.needsUpdate = true; }
}

// which models are loaded, the static entities' poses, the loaded levels, the owners
function applyState() {
  if (!state || !sceneJson) return;
  const loaded = new Set(state.loaded);
  T.loaded = state.loaded; T.levels = state.levels; T.owners = state.owners;
  for (const e of ents) if (e.static) setVisible(e, false);
  for (const s of state.static) {
    const e = ents[s[0]];
    if (!e) continue;
    placeEntity(e, s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
    setVisible(e, loaded.has(e.model));
  }
  for (const e of ents) if (!e.static && !loaded.has(e.model)) setVisible(e, false);
  const on = new Set(state.levels);
  for (const l of levelBoxes) {
    const c = on.has(l.name) ? 0x66bb6a : 0x9e9e9e;
    l.box.material.color.setHex(c); l.buffer.material.color.setHex(on.has(l.name) ? 0x2e7d32 : 0x616161);
  }
  applyColors();
  applyOwners();
  countBodies();
}

// models recoloured while running (an experiment's screen colour)
function applyColors() {
  const colors = (state && state.colors) || {};
  for (const e of ents) {
    const c = colors[e.model];
    if (!c) continue;
    for (const m of e.mats) m.color.setRGB(c[0], c[1], c[2]);
    for (const i of e.inst) { i.mesh.setColorAt(i.index, new THREE.Color(c[0], c[1], c[2])); i.mesh.instanceColor.needsUpdate = true; }
  }
}

const ownerColour = new Map();
function colourOf(secondary) {
  if (!ownerColour.has(secondary)) ownerColour.set(secondary, OWNER_COLOURS[ownerColour.size % OWNER_COLOURS.length]);
  return ownerColour.get(secondary);
}

function applyOwners() {
  const show = $('showOwners').checked;
  const owners = (state && state.owners) || {};
  const white = new THREE.Color(1, 1, 1);
  for (const e of ents) {
    const o = owners[e.model];
    const c = show && o ? new THREE.Color(colourOf(o)) : null;
    for (const m of e.mats) { m.emissive.set(c ? c : 0x000000); m.emissiveIntensity = c ? 0.45 : 0; }
    for (const i of e.inst) { i.mesh.setColorAt(i.index, c ? c.clone().lerp(white, 0.35) : white); i.mesh.instanceColor.needsUpdate = true; }
  }
  renderPeers();
}

function countBodies() {
  let n = 0;
  for (const e of ents) if (e.visible) n++;
  T.bodies = n;
}

// a TPF1 frame: u32 magic, u64 iteration, u64 sim time ns, u32 n, n x (u32 id, f32 x y z qx qy qz qw)
const rtfSamples = [];
function applyFrame(buf) {
  const dv = new DataView(buf);
  if (dv.getUint32(0, true) !== 0x31465054) return;
  const iteration = Number(dv.getBigUint64(4, true));
  const simNs = Number(dv.getBigUint64(12, true));
  const n = dv.getUint32(20, true);
  const f = new Float32Array(buf, 24, n * 8);
  const u = new Uint32Array(buf, 24, n * 8);
  const stamp = ++T.frames;
  for (let i = 0; i < n; i++) {
    const e = ents[u[8 * i]];
    if (!e) continue;
    const o = 8 * i;
    placeEntity(e, f[o + 1], f[o + 2], f[o + 3], f[o + 4], f[o + 5], f[o + 6], f[o + 7]);
    e.stamp = stamp;
    setVisible(e, true);
  }
  for (const e of ents) if (!e.static && e.visible && e.stamp !== stamp) setVisible(e, false);
  T.iteration = iteration;
  T.simTimeS = simNs / 1e9;
  const now = performance.now();
  rtfSamples.push([now, T.simTimeS]);
  while (rtfSamples.length > 2 && now - rtfSamples[0][0] > 1500) rtfSamples.shift();
  if (rtfSamples.length >= 2) {
    const [w0, s0] = rtfSamples[0];
    T.rtf = now > w0 ? (T.simTimeS - s0) / ((now - w0) / 1000) : null;
  }
  countBodies();
  lastFrame = buf;
}

let status = null;
function applyStatus(s) {
  status = s;
  T.mode = s.mode; T.paused = s.paused; T.ended = s.ended; T.peers = s.peers || [];
  if (s.follow !== undefined && s.follow && !T.follow) { T.follow = s.follow; $('follow').value = s.follow; }
  $('ended').textContent = s.ended ? (s.mode === 'replay' ? '' : 'run ended: ') + s.ended : '';
  $('reset').hidden = s.mode === 'replay';
  if (s.mode === 'replay') {
    T.replay = { startS: s.startS, endS: s.endS, timeS: s.timeS, speed: s.speed };
    $('timeline').hidden = false;
    const seek = $('seek');
    seek.min = s.startS; seek.max = s.endS;
    if (!seeking) seek.value = s.timeS;
    $('seekLabel').textContent = s.timeS.toFixed(3) + ' / ' + s.endS.toFixed(3) + ' s';
    $('speed').value = String(s.speed);
  }
  renderPeers();
}

function renderPeers() {
  const div = $('peers');
  const owners = (state && state.owners) || {};
  const parts = [];
  for (const p of T.peers) {
    const c = '#' + colourOf(p.name).toString(16).padStart(6, '0');
    const models = Object.keys(owners).filter((m) => owners[m] === p.name).length;
    parts.push(`<span class="peer" data-peer="${esc(p.name)}"><span class="swatch" style="background:${c}"></span>${esc(p.name)}: ${esc(p.state)}${p.lifecycle ? ' (lifecycle ' + esc(p.lifecycle) + ')' : ''}${models ? ' (' + models + ' models)' : ''}</span>`);
  }
  div.innerHTML = parts.join(' ');
}

function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }

// closed loop: spikes (raster) and signals (rolling plots)
const raster = { canvas: $('raster'), spikes: [], neurons: 1, windowS: 2 };
const plots = { charts: new Map(), windowS: 10 };
function applySignals(s) {
  T.signalsTimeS = s.timeS;
  if (s.spikes) {
    raster.canvas.hidden = false;
    raster.spikes = s.spikes;   // [[t s, neuron], ...] of the window ending at s.timeS
    raster.neurons = s.neurons || raster.neurons;
    raster.windowS = s.windowS || raster.windowS;
    raster.endS = s.timeS;
    T.spikes = s.spikes.length;
  }
  if (s.series) {
    plots.windowS = s.windowS || plots.windowS;
    for (const [name, data] of Object.entries(s.series)) { plot(name, data); T.plots[name] = data[0].length; }
  }
}

function drawRaster() {
  const c = raster.canvas;
  if (c.hidden) return;
  const w = c.width = 360, h = c.height = 160;
  const g = c.getContext('2d');
  g.fillStyle = '#14181e'; g.fillRect(0, 0, w, h);
  g.fillStyle = '#9e9e9e'; g.font = '11px sans-serif';
  g.fillText('spikes, last ' + raster.windowS + ' s (sim time)', 6, 12);
  g.fillStyle = '#4fc3f7';
  const t0 = raster.endS - raster.windowS;
  for (const [t, n] of raster.spikes) {
    g.fillRect(Math.round(((t - t0) / raster.windowS) * (w - 8)) + 4, 18 + Math.round((n / Math.max(1, raster.neurons)) * (h - 24)), 2, 2);
  }
}

function plot(name, data) {
  // data: [[t...], [v...]]
  let p = plots.charts.get(name);
  if (!p && window.uPlot) {
    const el = document.createElement('div');
    $('plots').appendChild(el);
    const u = new window.uPlot({ title: name, width: 340, height: 120, scales: { x: { time: false } },
      series: [{ label: 't (s)' }, { label: name, stroke: '#1e88e5' }] }, data, el);
    p = { u };
    plots.charts.set(name, p);
  } else if (p) {
    p.u.setData(data);
  }
}

// the follow camera keeps its offset from the followed model
let followed = null;
function updateFollow() {
  if (!T.follow) return;
  const e = firstOfModel.get(T.follow);
  if (!e || !e.visible) return;
  const target = new THREE.Vector3(e.pose[0], e.pose[1], e.pose[2]);
  if (followed !== T.follow) {
    // a new model to follow: start from a view a few metres behind and above it, then keep the user's offset
    followed = T.follow;
    controls.target.copy(target);
    camera.position.copy(target).add(new THREE.Vector3(2.5, -3.5, 2.0));
    return;
  }
  camera.position.add(target.clone().sub(controls.target));
  controls.target.copy(target);
}

// the deformable bodies' meshes follow their nodes (once per frame received)
function updateSurfaces() {
  for (const sf of surfaces) {
    const first = sf.nodes[0];
    sf.mesh.visible = !!first && first.visible;
    if (!sf.mesh.visible || first.stamp === sf.stamp) continue;
    sf.stamp = first.stamp;
    const a = sf.mesh.geometry.attributes.position.array;
    for (let i = 0; i < sf.nodes.length; i++) {
      const p = sf.nodes[i].pose;
      a[3 * i] = p[0]; a[3 * i + 1] = p[1]; a[3 * i + 2] = p[2];
    }
    sf.mesh.geometry.attributes.position.needsUpdate = true;
    sf.mesh.geometry.computeVertexNormals();
  }
}

function updatePerformers() {
  const show = $('showPerformers').checked;
  for (const p of performerBoxes) {
    const e = firstOfModel.get(p.model);
    p.box.visible = show && !!e && e.visible;
    if (p.box.visible) p.box.position.set(e.pose[0], e.pose[1], e.pose[2]);
  }
  const levels = $('showLevels').checked;
  for (const l of levelBoxes) { l.box.visible = levels; l.buffer.visible = levels; }
}

function hud() {
  const lines = [];
  lines.push(`${T.mode === 'replay' ? 'replay' : (status && status.role) || 'live'}   ${T.connected ? 'connected' : 'disconnected'}   ${T.paused ? 'PAUSED' : 'running'}`);
  lines.push(`iteration ${T.iteration}${status && status.targetIterations ? ' / ' + status.targetIterations : ''}`);
  lines.push(`sim time  ${T.simTimeS.toFixed(3)} s`);
  lines.push(`RTF       ${T.rtf == null || T.paused ? '-' : T.rtf.toFixed(2)}`);
  lines.push(`bodies    ${T.bodies}   ${T.fps.toFixed(0)} fps${T.maxFps > 0 ? ' (at most ' + T.maxFps + ')' : ''}`);
  const text = lines.join('\n');
  if ($('counters').textContent !== text) $('counters').textContent = text;
  if ($('notice').textContent !== (T.notice || '')) $('notice').textContent = T.notice || '';
}

let sizedW = -1, sizedH = -1;
function resize() {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (sizedW !== w || sizedH !== h) {
    sizedW = w; sizedH = h;
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
    return true;
  }
  return false;
}

let fpsFrames = 0, fpsStart = performance.now();
// drawn on demand: a new frame, state, scene or camera move schedules one animation frame; an idle
// page asks the browser for none (no compositor frames either)
// tandem.maxFps > 0 caps the drawn frames: a redraw asked for sooner waits until 4 ms before the interval
// ends and then asks for an animation frame, which comes at the next display frame (every second one at
// 30 frames/s on a 60 Hz display, even when the timer fires a little late); what arrives meanwhile is drawn then
let scheduled = false;
let lastDrawMs = -Infinity;
function redraw() {
  if (scheduled) return;
  scheduled = true;
  const wait = T.maxFps > 0 ? lastDrawMs + 1000 / T.maxFps - 4 - performance.now() : 0;
  if (wait > 0) setTimeout(() => requestAnimationFrame(render), wait);
  else requestAnimationFrame(render);
}
controls.addEventListener('change', redraw);
const LOG = new URLSearchParams(location.search).has('log');
// ?play: press play once connected (a paused run started for a measurement)
let playOnStatus = new URLSearchParams(location.search).has('play');
function render() {
  scheduled = false;
  lastDrawMs = performance.now();
  resize();
  updateFollow();
  updatePerformers();
  updateSurfaces();
  controls.update();
  for (const b of batches) b.sync();
  renderer.render(scene3, camera);
  T.renderedFrames++;
  T.drawnIteration = T.iteration;
  fpsFrames++;
}
// the HUD four times a second; frames/s (and the ?log line) once a second
setInterval(() => {
  hud();
  if (resize()) redraw();
  const now = performance.now();
  if (now - fpsStart >= 1000) {
    T.fps = (fpsFrames * 1000) / (now - fpsStart); fpsFrames = 0; fpsStart = now; drawRaster();
    // ?log: a line a second on the console, for measurements in a headless browser (--enable-logging=stderr)
    if (LOG) console.log('tandem ' + JSON.stringify({ fps: +T.fps.toFixed(1), bodies: T.bodies, iteration: T.iteration, frames: T.frames }));
  }
}, 250);

let ws = null;
function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.binaryType = 'arraybuffer';
  ws.onopen = () => { T.connected = true; hud(); };
  ws.onclose = () => { T.connected = false; hud(); setTimeout(connect, 1000); };
  ws.onmessage = (m) => {
    if (typeof m.data !== 'string') { applyFrame(m.data); redraw(); return; }
    const s = JSON.parse(m.data);
    switch (s.type) {
      case 'scene': buildScene(s); break;
      case 'state': state = s; applyState(); if (lastFrame) applyFrame(lastFrame); break;
      case 'status': applyStatus(s); if (playOnStatus) { playOnStatus = false; T.send('play'); } break;
      case 'signals': applySignals(s); break;
      case 'notice': T.notice = s.text; break;
      default: break;
    }
    redraw();
  };
}

let seeking = false;
$('play').onclick = () => T.send('play');
$('pause').onclick = () => T.send('pause');
$('step').onclick = () => T.send('step', Number($('stepN').value) || 1);
$('reset').onclick = () => T.send('reset');
$('seek').oninput = () => { seeking = true; };
$('seek').onchange = () => { seeking = false; T.send('seek', Number($('seek').value)); };
$('speed').onchange = () => T.send('speed', Number($('speed').value));
$('follow').onchange = () => { T.follow = $('follow').value || null; redraw(); };
$('showOwners').onchange = () => { applyOwners(); redraw(); };
$('showLevels').onchange = redraw;
$('showPerformers').onchange = redraw;

connect();
redraw();
