use crate::GlyphId;
use crate::ProgramLoader;
use crate::generated::{glyph_names, metrics, standard, symbol, zapf_dings};
use crate::program::FontProgram;
use crate::true_type::{Width, read_encoding, read_widths};
use crate::{
    Encoding, FontQuery, glyph_name_to_unicode, normalized_glyph_name, stretch_factor,
    strip_subset_prefix,
};
use hayro_cmap::BfString;
use hayro_syntax::object::Dict;
use hayro_syntax::object::Name;
use hayro_syntax::object::dict::keys::{BASE_FONT, FONT_DESC, FONT_WEIGHT, ITALIC_ANGLE};
use rustc_hash::FxHashMap;

/// The 14 standard fonts of PDF.
#[derive(Copy, Clone, Debug, Hash)]
pub enum StandardFont {
    /// Helvetica.
    Helvetica,
    /// Helvetica Bold.
    HelveticaBold,
    /// Helvetica Oblique.
    HelveticaOblique,
    /// Helvetica Bold Oblique.
    HelveticaBoldOblique,
    /// Courier.
    Courier,
    /// Courier Bold.
    CourierBold,
    /// Courier Oblique.
    CourierOblique,
    /// Courier Bold Oblique.
    CourierBoldOblique,
    /// Times Roman.
    TimesRoman,
    /// Times Bold.
    TimesBold,
    /// Times Italic.
    TimesItalic,
    /// Times Bold Italic.
    TimesBoldItalic,
    /// Zapf Dingbats - a decorative symbol font.
    ZapfDingBats,
    /// Symbol - a mathematical symbol font.
    Symbol,
}

impl StandardFont {
    /// Return the postscrit name of the font.
    pub fn postscript_name(&self) -> &'static str {
        match self {
            Self::Helvetica => "Helvetica",
            Self::HelveticaBold => "Helvetica-Bold",
            Self::HelveticaOblique => "Helvetica-Oblique",
            Self::HelveticaBoldOblique => "Helvetica-BoldOblique",
            Self::Courier => "Courier",
            Self::CourierBold => "Courier-Bold",
            Self::CourierOblique => "Courier-Oblique",
            Self::CourierBoldOblique => "Courier-BoldOblique",
            Self::TimesRoman => "Times-Roman",
            Self::TimesBold => "Times-Bold",
            Self::TimesItalic => "Times-Italic",
            Self::TimesBoldItalic => "Times-BoldItalic",
            Self::ZapfDingBats => "ZapfDingbats",
            Self::Symbol => "Symbol",
        }
    }

    /// Return suitable font data for the given standard font.
    ///
    /// Currently, this will return the corresponding Foxit font, which is a set of permissibly
    /// licensed fonts that is also very light-weight.
    ///
    /// You can use the result of this method in your implementation of [`FontResolverFn`].
    ///
    /// [`FontResolverFn`]: crate::FontResolverFn
    #[cfg(feature = "embed-fonts")]
    pub fn get_font_data(&self) -> (crate::FontData, u32) {
        use std::sync::Arc;

        let data = match self {
            Self::Helvetica => &include_bytes!("../assets/FoxitSans.pfb")[..],
            Self::HelveticaBold => &include_bytes!("../assets/FoxitSansBold.pfb")[..],
            Self::HelveticaOblique => &include_bytes!("../assets/FoxitSansItalic.pfb")[..],
            Self::HelveticaBoldOblique => &include_bytes!("../assets/FoxitSansBoldItalic.pfb")[..],
            Self::Courier => &include_bytes!("../assets/FoxitFixed.pfb")[..],
            Self::CourierBold => &include_bytes!("../assets/FoxitFixedBold.pfb")[..],
            Self::CourierOblique => &include_bytes!("../assets/FoxitFixedItalic.pfb")[..],
            Self::CourierBoldOblique => &include_bytes!("../assets/FoxitFixedBoldItalic.pfb")[..],
            Self::TimesRoman => &include_bytes!("../assets/FoxitSerif.pfb")[..],
            Self::TimesBold => &include_bytes!("../assets/FoxitSerifBold.pfb")[..],
            Self::TimesItalic => &include_bytes!("../assets/FoxitSerifItalic.pfb")[..],
            Self::TimesBoldItalic => &include_bytes!("../assets/FoxitSerifBoldItalic.pfb")[..],
            Self::ZapfDingBats => &include_bytes!("../assets/FoxitDingbats.pfb")[..],
            Self::Symbol => {
                include_bytes!("../assets/FoxitSymbol.pfb")
            }
        };

        (Arc::new(data), 0)
    }

    pub(crate) fn code_to_name(&self, code: u8) -> Option<&'static str> {
        match self {
            Self::Symbol => symbol::get(code),
            // Note that this font does not return postscript character names,
            // but instead has a custom encoding.
            Self::ZapfDingBats => zapf_dings::get(code),
            _ => standard::get(code),
        }
    }

    pub(crate) fn get_width(&self, mut name: &str) -> Option<f32> {
        // <https://github.com/apache/pdfbox/blob/129aafe26548c1ff935af9c55cb40a996186c35f/pdfbox/src/main/java/org/apache/pdfbox/pdmodel/font/PDSimpleFont.java#L340>
        if name == ".notdef" {
            return Some(250.0);
        }

        name = normalized_glyph_name(name);

        match self {
            Self::Helvetica => metrics::HELVETICA.get(name).copied(),
            Self::HelveticaBold => metrics::HELVETICA_BOLD.get(name).copied(),
            Self::HelveticaOblique => metrics::HELVETICA_OBLIQUE.get(name).copied(),
            Self::HelveticaBoldOblique => metrics::HELVETICA_BOLD_OBLIQUE.get(name).copied(),
            Self::Courier => metrics::COURIER.get(name).copied(),
            Self::CourierBold => metrics::COURIER_BOLD.get(name).copied(),
            Self::CourierOblique => metrics::COURIER_OBLIQUE.get(name).copied(),
            Self::CourierBoldOblique => metrics::COURIER_BOLD_OBLIQUE.get(name).copied(),
            Self::TimesRoman => metrics::TIMES_ROMAN.get(name).copied(),
            Self::TimesBold => metrics::TIMES_BOLD.get(name).copied(),
            Self::TimesItalic => metrics::TIMES_ITALIC.get(name).copied(),
            Self::TimesBoldItalic => metrics::TIMES_BOLD_ITALIC.get(name).copied(),
            Self::ZapfDingBats => metrics::ZAPF_DING_BATS.get(name).copied(),
            Self::Symbol => metrics::SYMBOL.get(name).copied(),
        }
    }

    pub(crate) fn is_bold(&self) -> bool {
        matches!(
            self,
            Self::HelveticaBold
                | Self::HelveticaBoldOblique
                | Self::CourierBold
                | Self::CourierBoldOblique
                | Self::TimesBold
                | Self::TimesBoldItalic
        )
    }

    pub(crate) fn is_italic(&self) -> bool {
        matches!(
            self,
            Self::HelveticaOblique
                | Self::HelveticaBoldOblique
                | Self::CourierOblique
                | Self::CourierBoldOblique
                | Self::TimesItalic
                | Self::TimesBoldItalic
        )
    }

    pub(crate) fn is_serif(&self) -> bool {
        matches!(
            self,
            Self::TimesRoman | Self::TimesBold | Self::TimesItalic | Self::TimesBoldItalic
        )
    }

    pub(crate) fn is_monospace(&self) -> bool {
        matches!(
            self,
            Self::Courier | Self::CourierBold | Self::CourierOblique | Self::CourierBoldOblique
        )
    }
}

#[derive(Debug)]
pub(crate) struct StandardKind {
    base_font: StandardFont,
    pub(crate) program: FontProgram,
    encoding: Encoding,
    widths: Vec<Width>,
    missing_width: f32,
    fallback: bool,
    code_to_glyph: Box<[GlyphId; 256]>,
    encodings: FxHashMap<u8, String>,
}

impl StandardKind {
    pub(crate) fn new(dict: &Dict<'_>, loader: &ProgramLoader<'_>) -> Option<Self> {
        let descriptor = dict.get::<Dict<'_>>(FONT_DESC).unwrap_or_default();
        let (font, exact) = select_standard_font(dict, &descriptor)?;
        Self::new_with_standard(dict, font, !exact, loader)
    }

    pub(crate) fn new_with_standard(
        dict: &Dict<'_>,
        base_font: StandardFont,
        fallback: bool,
        loader: &ProgramLoader<'_>,
    ) -> Option<Self> {
        let descriptor = dict.get::<Dict<'_>>(FONT_DESC).unwrap_or_default();
        let (widths, missing_width) = read_widths(dict, &descriptor)?;

        let (mut encoding, encoding_map) = read_encoding(dict);

        // See PDFJS-16464: Ignore encodings for non-embedded Type1 symbol fonts.
        if matches!(base_font, StandardFont::Symbol | StandardFont::ZapfDingBats) {
            encoding = Encoding::BuiltIn;
        }

        let program = loader.resolve(&FontQuery::Standard(base_font))?;

        let mut kind = Self {
            base_font,
            program,
            widths,
            missing_width,
            encodings: encoding_map,
            code_to_glyph: Box::new([GlyphId::NOTDEF; 256]),
            fallback,
            encoding,
        };
        kind.code_to_glyph = Box::new(std::array::from_fn(|code| kind.lookup_glyph(code as u8)));

        Some(kind)
    }

    fn code_to_ps_name(&self, code: u8) -> Option<&str> {
        let bf = self.base_font;

        self.encodings
            .get(&code)
            .map(String::as_str)
            .or_else(|| match self.encoding {
                Encoding::BuiltIn => bf.code_to_name(code),
                _ => self.encoding.map_code(code),
            })
    }

    pub(crate) fn map_code(&self, code: u8) -> GlyphId {
        self.code_to_glyph[code as usize]
    }

    fn lookup_glyph(&self, code: u8) -> GlyphId {
        self.code_to_ps_name(code)
            .and_then(|c| {
                self.program.glyph_by_name(c).or_else(|| {
                    // If the font doesn't have a POST table, try to map via unicode instead.
                    glyph_names::get(c)
                        .and_then(|c| c.chars().next())
                        .and_then(|c| self.program.cmap_glyph(c))
                })
            })
            .unwrap_or(GlyphId::NOTDEF)
    }

    // The substitute font might have different metrics than the standard font it
    // replaces, so its glyphs need to be stretched to the expected widths.
    pub(crate) fn glyph_stretch(&self, glyph: GlyphId, code: u8) -> f64 {
        let Some(actual_width) = self.program.advance_width(glyph).or_else(|| {
            self.code_to_ps_name(code)
                .and_then(|name| self.base_font.get_width(name))
        }) else {
            return 1.0;
        };

        // From my experiments: Most PDF viewers, if they detect a font is a
        // standard font, they completely ignore the widths array, even if
        // different widths are indicated there. So only if it's an unknown
        // font do we check the widths array. Otherwise, we always use the
        // base font metrics.
        let expected_width = if self.fallback {
            match self.widths.get(code as usize).copied() {
                Some(Width::Value(w)) => w,
                _ => return 1.0,
            }
        } else if let Some(w) = self
            .code_to_ps_name(code)
            .and_then(|name| self.base_font.get_width(name))
        {
            w
        } else {
            return 1.0;
        };

        stretch_factor(expected_width, actual_width)
    }

    pub(crate) fn glyph_width(&self, code: u8) -> Option<f32> {
        match self.widths.get(code as usize).copied() {
            Some(Width::Value(w)) => Some(w),
            Some(Width::Missing) => Some(self.missing_width),
            None => self
                .code_to_ps_name(code)
                .and_then(|c| self.base_font.get_width(c)),
        }
    }

    pub(crate) fn char_code_to_unicode(&self, code: u8) -> Option<BfString> {
        let is_zapf_dingbats = matches!(self.base_font, StandardFont::ZapfDingBats);
        self.code_to_ps_name(code)
            .and_then(|name| glyph_name_to_unicode(name, is_zapf_dingbats))
    }

    pub(crate) fn is_italic(&self) -> bool {
        self.base_font.is_italic()
    }

    pub(crate) fn is_bold(&self) -> bool {
        self.base_font.is_bold()
    }

    pub(crate) fn is_serif(&self) -> bool {
        self.base_font.is_serif()
    }

    pub(crate) fn is_monospace(&self) -> bool {
        self.base_font.is_monospace()
    }
}

pub(crate) fn select_standard_font(
    dict: &Dict<'_>,
    descriptor: &Dict<'_>,
) -> Option<(StandardFont, bool)> {
    let base_font = dict.get::<Name<'_>>(BASE_FONT)?;
    let name = strip_subset_prefix(base_font.as_str());

    // First try whether it matches literally.
    match name {
        "Helvetica" => return Some((StandardFont::Helvetica, true)),
        "Helvetica-Bold" => return Some((StandardFont::HelveticaBold, true)),
        "Helvetica-Oblique" => return Some((StandardFont::HelveticaOblique, true)),
        "Helvetica-BoldOblique" => return Some((StandardFont::HelveticaBoldOblique, true)),
        "Courier" => return Some((StandardFont::Courier, true)),
        "Courier-Bold" => return Some((StandardFont::CourierBold, true)),
        "Courier-Oblique" => return Some((StandardFont::CourierOblique, true)),
        "Courier-BoldOblique" => return Some((StandardFont::CourierBoldOblique, true)),
        "Times-Roman" => return Some((StandardFont::TimesRoman, true)),
        "Times-Bold" => return Some((StandardFont::TimesBold, true)),
        "Times-Italic" => return Some((StandardFont::TimesItalic, true)),
        "Times-BoldItalic" => return Some((StandardFont::TimesBoldItalic, true)),
        "Symbol" => return Some((StandardFont::Symbol, true)),
        "ZapfDingbats" => return Some((StandardFont::ZapfDingBats, true)),
        _ => {}
    }

    // Now, we bruteforce, trying to determine a suitable font based on the
    // keywords that appear in the name.
    let lower = name.to_ascii_lowercase();

    let is_bold = descriptor.get::<u32>(FONT_WEIGHT).is_some_and(|w| w >= 700)
        || lower.contains("bold")
        || lower.contains("demi");
    let is_italic = descriptor
        .get::<f32>(ITALIC_ANGLE)
        .is_some_and(|a| a != 0.0)
        || lower.contains("italic")
        || lower.contains("oblique");

    let (family, exact) = if lower.contains("helvetica") {
        (Some(StandardFontFamily::Helvetica), true)
    } else if lower.contains("arial") || lower.contains("sans") {
        (Some(StandardFontFamily::Helvetica), false)
    } else if lower.contains("courier") {
        (Some(StandardFontFamily::Courier), true)
    } else if lower.contains("mono") {
        (Some(StandardFontFamily::Courier), false)
    } else if lower.contains("times") {
        (Some(StandardFontFamily::Times), true)
    } else if lower.contains("serif") {
        (Some(StandardFontFamily::Times), false)
    } else if lower.contains("zapfdingbats") || lower.contains("dingbats") {
        return Some((StandardFont::ZapfDingBats, false));
    } else {
        (None, false)
    };

    let font = match (family?, is_bold, is_italic) {
        (StandardFontFamily::Helvetica, false, false) => StandardFont::Helvetica,
        (StandardFontFamily::Helvetica, true, false) => StandardFont::HelveticaBold,
        (StandardFontFamily::Helvetica, false, true) => StandardFont::HelveticaOblique,
        (StandardFontFamily::Helvetica, true, true) => StandardFont::HelveticaBoldOblique,
        (StandardFontFamily::Courier, false, false) => StandardFont::Courier,
        (StandardFontFamily::Courier, true, false) => StandardFont::CourierBold,
        (StandardFontFamily::Courier, false, true) => StandardFont::CourierOblique,
        (StandardFontFamily::Courier, true, true) => StandardFont::CourierBoldOblique,
        (StandardFontFamily::Times, false, false) => StandardFont::TimesRoman,
        (StandardFontFamily::Times, true, false) => StandardFont::TimesBold,
        (StandardFontFamily::Times, false, true) => StandardFont::TimesItalic,
        (StandardFontFamily::Times, true, true) => StandardFont::TimesBoldItalic,
    };

    Some((font, exact))
}

enum StandardFontFamily {
    Helvetica,
    Courier,
    Times,
}
