// A signature drawn with a pointer (mouse, pen or finger) on a canvas, kept as the API's
// legalSignature.strokes: each stroke a list of points {x, y, t}, x and y from 0 to 1 across
// the canvas and t the milliseconds since the stroke began.
const MAX_STROKES = 20;
const MAX_POINTS = 1000;
const MAX_MILLIS = 300000;

export function signaturePad(canvas) {
  const ctx = canvas.getContext('2d');
  let strokes = [];
  let current = null;
  let began = 0;

  const point = (e) => {
    const r = canvas.getBoundingClientRect();
    const clamp = (v) => Math.min(1, Math.max(0, v));
    return {
      x: clamp((e.clientX - r.left) / r.width),
      y: clamp((e.clientY - r.top) / r.height),
      t: Math.min(MAX_MILLIS, Math.round(e.timeStamp - began)),
    };
  };
  const drawTo = (p) => {
    const last = current[current.length - 1];
    ctx.beginPath();
    ctx.moveTo(last.x * canvas.width, last.y * canvas.height);
    ctx.lineTo(p.x * canvas.width, p.y * canvas.height);
    ctx.stroke();
  };
  const end = () => {
    if (current && current.length >= 2) strokes.push(current);
    current = null;
    canvas.dispatchEvent(new Event('change'));
  };

  ctx.lineWidth = 2.5;
  ctx.lineCap = 'round';
  ctx.strokeStyle = '#1a1f36';
  canvas.addEventListener('pointerdown', (e) => {
    if (strokes.length >= MAX_STROKES) return;
    canvas.setPointerCapture(e.pointerId);
    began = e.timeStamp;
    current = [point(e)];
  });
  canvas.addEventListener('pointermove', (e) => {
    if (!current || current.length >= MAX_POINTS) return;
    const p = point(e);
    drawTo(p);
    current.push(p);
  });
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);

  return {
    strokes: () => strokes,
    clear() {
      strokes = [];
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      canvas.dispatchEvent(new Event('change'));
    },
  };
}
