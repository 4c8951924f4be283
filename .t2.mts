import sharp from 'sharp';
sharp.concurrency(1);
const base = await sharp({ create: { width: 96, height: 72, channels: 3, background: { r: 150, g: 120, b: 90 } } }).jpeg({ quality: 80 }).toBuffer();
const imgs = Array.from({length: 6000}, (_, i) => Buffer.concat([base.subarray(0,2), Buffer.from([0xff,0xfe,0,6, ...Buffer.from(String(i%10000).padStart(4,'0'))]), base.subarray(2)]));
let i = 0;
const c0 = process.cpuUsage();
await Promise.all(Array.from({length: 4}, async () => { while (i < imgs.length) { const b = imgs[i++]; await sharp(b).rotate().resize({ width: 320, withoutEnlargement: true }).webp({ quality: 78, effort: 2 }).toBuffer(); } }));
const c = process.cpuUsage(c0); console.log((c.user+c.system)/1000/imgs.length, 'ms/img', c.user/1000/imgs.length, 'user');
