//! Reading order of a page's blocks (spec §4.1 "native text"): a recursive XY cut over their
//! boxes, with one change for multi-column pages: adjacent horizontal bands that share a column
//! gutter are merged before cutting, so two columns whose paragraph breaks happen to line up are
//! still read left column first.

use crate::corpus::BBox;

const MIN_GUTTER: f32 = 6.0;

/// A vertical strip free of text between two columns: its left and right edge (points).
type Gutter = (f32, f32);

/// Recursive XY cut over block boxes; returns indices in reading order.
pub fn reading_order(boxes: &[BBox]) -> Vec<usize> {
    let mut out = Vec::with_capacity(boxes.len());
    let idx: Vec<usize> = (0..boxes.len()).collect();
    xy_cut(idx, boxes, &mut out, 0);
    out
}

fn gutters(idx: &[usize], boxes: &[BBox]) -> Vec<(f32, f32)> {
    let mut iv: Vec<(f32, f32)> = idx.iter().map(|&i| (boxes[i][0], boxes[i][2])).collect();
    iv.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut g = vec![];
    let mut end = f32::MIN;
    for (a, b) in iv {
        if end > f32::MIN && a - end >= MIN_GUTTER {
            g.push((end, a));
        }
        end = end.max(b);
    }
    g
}

fn y_bands(idx: &[usize], boxes: &[BBox]) -> Vec<Vec<usize>> {
    let mut s = idx.to_vec();
    s.sort_by(|&a, &b| boxes[a][1].total_cmp(&boxes[b][1]));
    let mut bands: Vec<Vec<usize>> = vec![];
    let mut bottom = f32::MIN;
    for i in s {
        let b = boxes[i];
        match bands.last_mut() {
            Some(band) if b[1] < bottom - 0.5 => band.push(i),
            _ => bands.push(vec![i]),
        }
        bottom = if bands.last().is_some_and(|x| x.len() == 1) {
            b[3]
        } else {
            bottom.max(b[3])
        };
    }
    bands
}

fn xy_cut(idx: Vec<usize>, boxes: &[BBox], out: &mut Vec<usize>, depth: u32) {
    if idx.len() <= 1 || depth > 64 {
        let mut s = idx;
        s.sort_by(|&a, &b| {
            boxes[a][1]
                .total_cmp(&boxes[b][1])
                .then(boxes[a][0].total_cmp(&boxes[b][0]))
        });
        out.extend(s);
        return;
    }
    let bands = y_bands(&idx, boxes);
    if bands.len() > 1 {
        // Merge neighbouring bands that share a column gutter (two columns whose paragraph breaks
        // line up must not be interleaved).
        let mut merged: Vec<(Vec<usize>, Vec<Gutter>)> = vec![];
        for band in bands {
            let g = gutters(&band, boxes);
            if let Some((mb, mg)) = merged.last_mut() {
                let common: Vec<(f32, f32)> = mg
                    .iter()
                    .flat_map(|a| g.iter().map(move |b| (a.0.max(b.0), a.1.min(b.1))))
                    .filter(|(a, b)| b - a >= MIN_GUTTER * 0.5)
                    .collect();
                if !mg.is_empty()
                    && !common.is_empty()
                    && band_is_multi(&band, boxes)
                    && band_is_multi(mb, boxes)
                {
                    mb.extend(band);
                    *mg = common;
                    continue;
                }
            }
            merged.push((band, g));
        }
        if merged.len() > 1 {
            for (b, _) in merged {
                xy_cut(b, boxes, out, depth + 1);
            }
            return;
        }
        let Some((only, _)) = merged.pop() else {
            return;
        };
        return split_columns(only, boxes, out, depth);
    }
    split_columns(idx, boxes, out, depth)
}

fn band_is_multi(band: &[usize], _boxes: &[BBox]) -> bool {
    band.len() > 1
}

fn split_columns(idx: Vec<usize>, boxes: &[BBox], out: &mut Vec<usize>, depth: u32) {
    let g = gutters(&idx, boxes);
    if g.is_empty() {
        let mut s = idx;
        s.sort_by(|&a, &b| {
            boxes[a][1]
                .total_cmp(&boxes[b][1])
                .then(boxes[a][0].total_cmp(&boxes[b][0]))
        });
        out.extend(s);
        return;
    }
    let mut cols: Vec<Vec<usize>> = vec![vec![]; g.len() + 1];
    for i in idx {
        let cx = boxes[i][0];
        // Gutters are in ascending order: a binary search, not a scan (a hostile page can have
        // as many gutters as boxes).
        let k = g.partition_point(|(a, _)| cx >= *a);
        cols[k].push(i);
    }
    for c in cols {
        if !c.is_empty() {
            xy_cut(c, boxes, out, depth + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_columns_with_aligned_paragraph_breaks_read_left_column_first() {
        // header, then two columns each with two paragraphs at the same heights, then a footer
        let boxes = vec![
            [50.0, 40.0, 550.0, 60.0],    // 0 header
            [310.0, 80.0, 550.0, 200.0],  // 1 right p1
            [50.0, 80.0, 290.0, 200.0],   // 2 left p1
            [50.0, 210.0, 290.0, 400.0],  // 3 left p2
            [310.0, 210.0, 550.0, 400.0], // 4 right p2
            [280.0, 740.0, 320.0, 752.0], // 5 footer
        ];
        assert_eq!(reading_order(&boxes), vec![0, 2, 3, 1, 4, 5]);
    }
}
