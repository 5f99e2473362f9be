import Foundation
import WebImage

/// The fixtures of the placeholder tests and what the reference implementations make of
/// them.
///
/// Every expected value here was printed by `scripts/placeholder_reference.py` (its
/// docstring has the commands): ThumbHash by a line-for-line port of evanw/thumbhash's
/// JavaScript reference, BlurHash by woltapp's C implementation through blurhash-python.
/// The two BlurHash decode hashes are the ones woltapp's README and demo publish.
enum PlaceholderReference {
    /// A deterministic picture the script builds the same way: red across, green down,
    /// blue a fast ramp of both and, with `alpha`, a top-left corner fading to clear.
    static func gradient(width: Int, height: Int, alpha: Bool) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let opacity = alpha ? min(255, (x + y) * 255 / (width + height - 2) * 2) : 255
                pixels += [UInt8(x * 255 / (width - 1)), UInt8(y * 255 / (height - 1)), UInt8((x * 7 + y * 13) % 256), UInt8(opacity)]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    /// The ThumbHash of the opaque 100 × 75 gradient.
    static let opaqueThumbHash = "3wcKNZqAh3dwd3d4eHh3eHCAB/h3"

    /// The reference's decode of ``opaqueThumbHash``: 32 × 23 RGBA pixels.
    static let opaqueThumbHashPixels = """
        AAGA/wAEgv8FB4X/DQyJ/xUQjf8dE4//JRWQ/ywVkP8zFI7/OxKM/0MRiv9NEIn/WRCJ/2YRiv90Eoz/gRKN/44Sjv+aD43/pQyM/64Hif+3Aof/wACF/8oAhP/UAIT/3wCG/+oAif/1AI3//wCS//\
        8Alv//AZn//wOc//8Dnf8ABIH/AQaD/wcKhv8ODor/FhON/x4WkP8mF5H/LReQ/zQWjv87FIz/RBOK/00Sif9ZEon/ZhOK/3MTi/+BFIz/jhON/5oRjP+kDYr/rgiI/7cEhf/AAIP/yQCC/9MAg//e\
        AIX/6QCI//QAjP/+AJD//wCU//8Bl///A5r//wSb/wEKg/8EDIT/CRCI/xAUi/8YGI7/IBuR/ygckf8uHJD/NRqO/zwZi/9EF4n/TRaI/1kVh/9lFoj/chaJ/4AWiv+NFYv/mBOK/6MQiP+sC4b/tQ\
        aD/74Bgf/IAID/0gCA/9wAgv/nAIX/8gCJ//wAjf//AZH//wOU//8Elv//BZf/BBKE/wcUhv8MGIn/ExyN/xsfkP8iIpH/KiOS/zAjkP82IY7/PR+L/0QciP9OG4b/WBqG/2Uahv9yG4f/fxuI/4sa\
        iP+XF4f/ohSF/6sPg/+0CoH/vQZ+/8YCff/QAH7/2wB//+UAgv/wAIX/+QKJ//8EjP//Bo///weR//8Hkv8HHYb/Ch6I/w8ii/8WJY7/HimR/yUrkv8sLJL/MiuQ/zgpjf8+Jor/RSSH/04ihf9YIY\
        T/ZCGE/3Ehhf9+IYX/iiCF/5YdhP+gGoP/qhaA/7MRfv+8DHz/xQl7/88Ge//aBXz/5AV//+4Ggv/3CIX//wmI//8Ki///C4z//wyN/wsoiP8OKor/Ey2M/xkxj/8gNJL/JzaT/y42kv8zNZD/OTON\
        /z8wif9GLYb/TiuE/1gqgv9kKoL/cSqC/30pg/+KKIP/lSaC/6AigP+qHn7/sxp8/7wVev/FEnn/zxB5/9kOev/jDnz/7Q9///UQgv/9EYT//xGG//8SiP//Eoj/DjWJ/xA3iv8VOo3/HD2Q/yJAkv\
        8pQpP/L0KS/zVBkP86Poz/QDuI/0Y4hf9PNoL/WTWB/2Q0gP9xNIH/fTSB/4ozgf+VMYD/oC1+/6opfP+zJXr/vCF4/8YeeP/QG3j/2Rp5/+Maev/sGn3/9Rp///wbgf//G4P//xuE//8chP8PQon/\
        EkSK/xdHjf8dSo//JE2R/ypOkv8wTpH/NU2P/zpKi/9AR4f/R0SE/09Cgf9ZQX//ZEF//3FBf/99QID/ikCA/5Y+f/+gO33/qjd8/7Qzev+9L3j/xyx3/9Eqd//aKHj/5Ch6/+0ne//1KH3/+yh///\
        8ogP//J4H//yeB/xBQiP8SUYr/F1SM/x1Xjv8kWpD/KluR/zBbkP81Wo3/OleJ/0BUhv9HUoL/T1CA/1lPfv9kT37/cU9+/35Pf/+KTn//lkx+/6FKff+rRnv/tUJ5/78/eP/IPHf/0jp3/9w4eP/l\
        N3n/7Td7//U3fP/7Nn3//zZ+//81f///NX//D12H/xJfiP8WYYr/HGSM/yJnjv8paI7/LmiN/zRni/85ZYf/P2KE/0ZggP9OXn7/WV19/2Reff9xXn3/fl5+/4tefv+WXH7/olp9/6xXe/+2U3n/v1\
        B4/8lNd//TS3f/3El4/+VIef/uSHr/9Ud7//pGfP/+RXz//0V9//9Eff8Oa4X/EG2G/xRviP8acor/IHSL/yZ2jP8sdov/MXSI/zdyhf89cIL/RG5//01tff9YbXz/Y218/3BufP99bn3/im59/5Zt\
        ff+hanz/rGd7/7Zkef+/YXj/yV53/9Ncd//cW3j/5Vl5/+1Zef/0WHr/+Vd7//1We///VXv//1R7/wt5g/8Oe4T/En2G/xd/iP8dgon/I4OJ/ymDiP8ugoX/NICC/zp+f/9CfXz/S3x7/1Z8ev9ifX\
        v/b357/3x+fP+Jfn3/lX18/6B7e/+qeHn/tHV4/75yd//Ib3b/0W12/9trdv/janf/62l4//FoeP/2Z3n/+mZ5//xleP/9ZHj/CYiB/wuJgv8Pi4T/FI2F/xqPhv8fkIb/JZCF/yqPg/8wjoD/N4x9\
        /z+Lev9Ii3n/U4t5/2CNef9tjnr/eo97/4eOe/+SjXv/nYt5/6iIeP+xhXb/u4F1/8R/dP/OfXT/13t0/+B6df/oeXb/7nh2//N3dv/2dnb/+HV2//l0df8Gl4H/CJiB/wyagv8RnIT/Fp2E/xuehP\
        8hnoL/Jp2A/yycff8zmnv/O5p4/0Wad/9Qm3f/XZx4/2qdef93nnr/hJ56/4+def+amnj/pJd2/62TdP+3kHL/wI5x/8qMcf/TinL/3Ily/+OIc//qh3P/74Z0//KFc//0hHP/9YNz/wWmgf8Gp4H/\
        CqmC/w6qg/8Tq4P/GKyC/x2sgf8iq37/KKl7/y+oef84qHf/Qqh2/02pdv9aq3f/Z6x4/3Stef+ArXj/i6t3/5apdf+fpXP/qKJx/7Keb/+7nG7/xZpu/86Zb//XmHD/35dw/+WWcf/qlXH/7pRx//\
        CTcf/xk3H/BLaC/wW3g/8IuIP/DLmD/xC6g/8VuoL/GrmA/x+4ff8lt3r/LLZ4/zS2dv8+t3X/Srh2/1e6d/9ku3f/cbx4/3y7d/+HuXb/kbZ0/5qzcf+jr27/rKxs/7apa/+/p2v/yaZs/9Kmbf/a\
        pW//4aVv/+akcP/qpHD/7aNw/+6icP8ExoX/BcaF/wfHhf8LyIX/D8iE/xPIg/8Xx4D/HMZ9/yLEev8pxHj/McN2/zzEdf9Hxnb/VMh3/2HJd/9uynj/ecl3/4THdf+Nw3L/lsBv/5+8bP+ouGr/sb\
        Zp/7u0av/FtGv/zrRs/9e0bv/etG//5LRw/+izcf/qs3H/7LJx/wTViP8G1oj/CNaI/wvWiP8O1ob/EtaE/xbUgf8a037/INF7/yfQeP8v0Hf/OtF2/0bTd/9S1Xf/X9d4/2vXeP931nf/gdR1/4rQ\
        cv+TzG//m8hs/6TEav+twmn/uMFp/8LBa//MwW3/1cJv/93Dcf/jw3L/58Nz/+rDc//sw3P/BuSN/wfkjP8J5Iz/C+SL/w7jif8R4ob/FeCD/xnff/8e3Xz/Jdx5/y7ceP843Xj/RN94/1Hhef9e43\
        r/auN5/3XieP9/33b/iNxy/5DXb/+Z02z/odBq/6vOaf+2zWr/wM5s/8vPbv/U0HH/3dFz/+PSdf/o0nf/7NN3/+3TeP8I8JH/CfCQ/wrwkP8M8I7/D++M/xHtif8U64X/GOmB/x7nfv8k53v/Led6\
        /zjoef9E6nr/UOx7/13ue/9p7nv/dO16/37qd/+H5nT/j+Jw/5febf+g2mv/qtlq/7XYa//A2W7/y9tx/9XddP/e3nf/5eB6/+vhe//u4Xz/8OF9/wr7lf8K+5T/DPqT/w35kf8P+I//EvaL/xX0h/\
        8Y8oP/HfCA/yTvff8t73v/OPF7/0TzfP9Q9X3/XfZ9/2n3ff909Xv/ffJ5/4budf+O6nH/l+Zu/6DjbP+q4mz/teJt/8DjcP/M5XT/1+d4/+Dqe//o7H7/7u2A//Hugv/z7oL/C/+Y/wz/l/8N/5b/\
        Dv+U/xD/kf8S/I3/FfqJ/xn4hf8d9oH/JPV+/y31ff8493z/RPl9/1D7fv9d/H//af1+/3T7ff99+Xr/hvV2/47wc/+W7G//oOlu/6robv+16G//wepy/83tdv/Y73v/4vJ+/+r0gv/w9oT/9PeG//\
        b3hv8M/5n/Df+Y/w7/l/8P/5X/Ef+S/xP/jv8V/Yr/GfuF/x75gv8k+H//Lfh+/zj6ff9E/H7/Uf5//13/gP9p/3//dP9+/338e/+G+Hf/jvNz/5fvcP+g7W//qutv/7bscP/C7nT/zvB4/9n0fP/j\
        9oD/6/mE//L7hv/2/Ij/+PyJ/w==
        """

    /// The ThumbHash of the 60 × 90 gradient with alpha.
    static let alphaThumbHash = "YviFIxgskKGoeIiAoQn4aHN3UHiFeHg="

    /// The reference's decode of ``alphaThumbHash``: 19 × 32 RGBA pixels.
    static let alphaThumbHashPixels = """
        aXWWKWp0lS5scZQ3b26TQXRqkUp6ZI9SgV+NV4pYi1mVUolcoUyIX61FhmW7P4VuyDqEeNU1hIThMISP7C2EmfQqhKD6KISl/SeEp2h1litpc5UwbHGUOW9uk0NzaZFNeWSPVIFfjVmKWItclVKJXq\
        BMh2KtRYZouz+FcMg6hHvVNYSH4TCEkuwtg5z0KoOj+iiEqP0nhKpndJUvaHOVNGtxlD1ubZJHc2mRUXlkj1mAXo1eiViLYZRSiWSgTIdnrUWGbbo/hXbIOoSB1TWEjeExg5jsLYOh9CuDqPopg639\
        KIOvZnSUNWdzlDppcJNDbW2STXFpkFd3ZI5ff16MZYhYimiTUohrn0yHb6xGhnW6QIV+yDqEidU1g5ThMYOf7C6DqfQrg7D6KYO0/SiDtmRzlDxlcpNBZ3CSSmttkVVwaY9fdmSNaH5ei22HWIpxkl\
        KIdJ5MhnisRoV/uUCEiMc7hJPVNoOe4TKDqewvg7L0LIO5+iqDvf0pg79ic5NEY3KSSWVwkVJpbZBdbmmOaHRkjXF8X4t3hlmJe5FTh3+dTYaDq0eFirlBhJPHPIOe1DeDqeEzg7TsMIO89C2Dw/os\
        g8f9K4PJX3OSTWBykVJjcJBbZ22PZ2xpjnJyZIx7e1+KgYRaiIaQVIeKnE6Fj6pIhJW4Q4Ofxj2DqdQ5g7ThNYK/7DKCx/Qvgs36LYLR/i2D01x0kVZec5FbYHGQZWRujnBpao17cGaLhXlhioyDW4\
        iRjlWGlZtQhZqpSoSht0WDqsZAg7XUO4LA4DeCyus0gtL0MYLX+jCC2/4vgtxadZBfW3SQZF1yj25hb455Z2yMhW5ni493YomWgV2Im41YhqCaUoWmqEyErbZHg7bFQoLA0z6Cy+A6gtTrN4Lc9DSC\
        4fozguT9MoLlV3eQaFh2j21bdY93X3KNgmRujI5saoqYdGWJoH9gh6aLWoarmFWEsKZQg7e1SoPAxEaCytJBgtXfPoLd6zuB5PQ4gun6N4Ls/TaC7VN6j3BVeY92V3iOf1x1jYticYyXaW2KoXJoiK\
        l9Y4eviV6FtJdZhLqlVIPBtE+CysNKgtTRRoHd30KB5uo/gezzPYHw+juB8v06gfNQfo95UX2OflR7johZeY2UX3WLoGZxiqpvbYiyemiHuIdjhb2VXYTDo1iDyrNTgtPCT4Hc0EuB5d5Hge3pRIDy\
        8kKA9vlAgPj8P4D4TIOPgU6CjoZRgI2QVX6MnFt6i6hjdomybXKIunhthsCEaIXFkmODy6FegtKxWYHawFSB489QgOvcTYDy6EqA9/FHgPr4Rn/7+0V//EiIjolKh46PTYaNmFGDjKRYgIuwYHyJum\
        l4h8J1c4bIgm6EzZBpg9KfZILZr1+B4b5bgOnNV3/x21N/9+ZQf/vwTn7+9kx+/vlMfv9Ej46SRY6Nl0mMjaBNiousVIeKt1yDiMFmf4fJcnqFz391g9SNcILZnGuB36xmgOe8Yn/uy15+9thafvvk\
        V33+7lV9//RTff/4U33/P5aNmkGVjaBEk4ypSZGLtFCOib9YiojJYoaG0G6BhNV7fYPainiB35lzgOWpbn7suWp988hmffrWYnz+4l98/+tde//yW3v/9Vp7/zqejaM8nYyoP5uLsUSZirxLlonHVJ\
        KH0F6OhddqioPcd4WC4IaAgOWWe37rpnZ98bZyfPjFbnv902p6/99nev/oZXn/72R5//Jjef81poysN6WLsTqki7o/oYnERp6Izk+bhtdZl4TdZpKC4nOOgeaCiX/qkoR98KJ/fPaye3r8wnd5/9Bz\
        eP/ccHj/5W53/+xsd//vbHf/MK+LtTKuiro1rYrCOquIzEGoh9ZKpIXeVaCD5GGcgehvl3/sfpJ98I6OfPSeiXr6r4R5/76Ad//MfXb/2Hp2/+J3df/odnX/7HV1/yu4ir4suIrCMLaJyjW0h9M8sY\
        bdRa6E5FCqgupdpoDta6F+8XqcfPSKl3r5mpN4/quOd/+6inb/yYd1/9WEdP/egXP/5YBz/+h/cv8lwonGJ8KJyivAiNIwvofaN7uF40C4g+pLtIHvWLB/8marffV2pnv4hqJ5/Jedd/+nmXX/t5V0\
        /8WRc//RjnL/24xx/+KKcf/liXD/IMyIzSLMiNEmyofYK8iG4TLFhOk8woLvR76A81S6fvZitnz5crF6/IKseP+TqHb/pKN0/7Ofcv/CnHH/zplw/9iWb//elW//4pRv/xvWiNMd1ofXIdSG3ibShe\
        Yuz4PtN8yC80PJgPdQxH35XsB7+267ef5/t3f/kLJ1/6Cuc/+wqnH/v6Zw/8ujb//VoW7/3J9t/9+fbf8X4IfYGeCH3BzehuIi3IXqKtqD8DPXgfY/03/5TM99+1vLev1rxnj/e8F2/429dP+duXL/\
        rbVw/7yxb//Irm7/0qxt/9mqbP/dqWz/E+qH3BXph98Y6IblHuaE7Cbkg/Mw4IH3O91/+0nZffxY1Xr+aNB4/3nMdv+Kx3P/m8Ny/6u/cP+6vG7/xrlt/9C2bP/XtWz/27Rr/w/zh94R84fhFfGG5x\
        vvhO4j7YP0LeqB+Dnnf/tG4338Vd96/mXaeP921nb/iNFz/5nNcf+pyXD/uMZu/8TDbf/OwGz/1b9r/9m+a/8M/IffDvuH4xL6hugY+IXuIPaD9Crzgfg273/6ROx9/FPoev1j43j/dd92/4bbdP+X\
        1nL/qNNw/7fPbv/DzG3/zcps/9TIa//Yx2v/Cv+H4Az/h+MQ/4boFv+F7h79g/Mo+4H3NPd/+UL0ffpR8Hv8Yut4/nPndv+F43T/lt9y/6fbcP+212//wtVt/8zSbP/T0Wz/19Br/wj/iN8K/4fiDv\
        +H5xT/he0d/4TyJ/+C9jP+gPhB+n35UPZ7+mHyefxy7nf/hOp0/5Xmcv+m4nD/td5v/8Lcbv/M2W3/09hs/9bXbP8H/4jfCf+I4g3/h+cT/4bsG/+E8Sb/gvQy/4D2QP9+90/8fPhg+Hn7cvN3/oPv\
        df+V63P/pudx/7Xkb//B4W7/zN9t/9PdbP/W3Wz/Bv+I3gj/iOEM/4fmEv+G6xv/hPAl/4PzMf+A9T//fvZP/3z3YPt6+nH3d/2D83X/le9z/6Xrcf+06HD/weVu/8vjbf/S4W3/1uBs/wX/id4H/4\
        jhDP+H5hL/husa/4XwJf+D8zH/gfU//371T/9891/9evlx+Xf9g/V1/5Xxc/+l7XH/tOpw/8Hnb//L5W7/0uNt/9bibf8=
        """

    /// The reference's decode of `LEHV6nWB2yk8pyo0adR*.7kCMdnj` (the BlurHash README's
    /// example) at 16 × 12 pixels, punch 1.
    static let readmeBlurHashPixels = """
        h6Sx/4mksf+Pp7H/mKqx/6Gtsf+qsLD/sLKu/7S0rf+1tKv/s7Or/6+xq/+orqz/oKyu/5epsf+Qp7P/iqa1/4ajsf+IpLH/jqWw/5eosP+gq6//qa6u/6+wrP+zsar/tLGp/7KwqP+tr6n/p6yq/5\
        +qrf+WqLD/j6ay/4qltP+Doa//haGv/4yirv+UpKz/naaq/6WnqP+rqKX/r6mj/7Cpof+uqaH/qqii/6Onpf+bpqn/lKSt/42jsP+Io7P/gJ6t/4KerP+Inqr/kJ6n/5ieo/+gnZ//pp6a/6qel/+q\
        npX/qJ6V/6SfmP+en53/l5+i/5CfqP+Jn63/hZ+w/3yaqf9+mqj/g5ml/4uWoP+UlJr/m5KU/6GRjf+kkIj/pJGG/6OSh/+flIz/mZaT/5KYm/+MmaL/hpqp/4Kbrf95l6b/e5ak/4CToP+IkJr/j4\
        yS/5eIif+chYD/n4R6/6CFd/+eh3n/m4qA/5WOif+PkZP/iZSd/4OWpP+Al6n/eJSi/3qToP9/kJv/houU/42Gi/+UgYD/mn52/518bv+efWz/nYBu/5mEdv+UiIH/joyN/4iPl/+Ckp//f5Ol/3mR\
        nv97kJz/gI2X/4aJkP+OhIb/lYB7/5p8cf+ee2n/n3xm/55/af+bg3H/lod8/5CKiP+JjZP/g4+b/3+RoP98kJr/fo+Z/4KNlP+Jio3/kIaE/5eDe/+dgXH/oYFr/6OCaP+jhGv/oIdy/5uKfP+UjI\
        b/jI2Q/4WOl/+Aj5z/gJCX/4KPlv+GjpL/jIyM/5SLhf+bin3/oop2/6aKcf+pi2//qY1x/6aOdv+gj37/mY+G/5CPjv+Ij5T/go6Y/4SQlf+GkJT/ipCR/5CQjf+XkIf/n5GB/6aSfP+rk3j/rpR2\
        /66VeP+rlXv/ppSB/56Th/+UkY3/i4+S/4SOlf+HkJP/iJCT/4yRkP+Tko3/mpSJ/6KWhP+pmID/r5l9/7KbfP+ym33/r5qA/6mYhP+hloj/l5ON/42QkP+GjpP/
        """

    /// The reference's decode of `LGF5]+Yk^6#M@-5c,1J5@[or[Q6.` (the BlurHash demo's
    /// example) at 12 × 9 pixels, punch 2.
    static let demoBlurHashPixels = """
        0m2t/9FutP/OcMT/xHDT/65p1/+MWc7/Zz23/2EAl/+MAHP/xABa//MAVv//AGD/y3Wz/8p2uv/Ed8r/uHbX/6Jv2f+DX8z/Zkax/2cai/+PAGT/wABS/+oAYP//AHT/uofA/7aIx/+ph9b/lITh/3\
        t83v9lbsj/YVmf/3VAY/+VLB3/tSs6/885dP/fRpn/pJzK/5qb0v9+muH/UJXq/wqL4f8efcL/WWuF/4JaAP+aUQD/pVUA/6Rfhf+gabf/kazL/4Ks0/9NqeL/AKLr/wCY4P8Airr/T3ls/4ZrAP+Z\
        ZQD/kWkA/25zjv8te8b/j7e8/362xf9Astb/AKvg/wCg1/8AkbL/QYFl/350AP+ObQD/fG8A/zZ3iv8AfsH/nrya/5G7pf9ot7r/AK/J/wCjxv8AlKv/MIRz/2l0AP95awD/amoA/y1ueP8Ac6f/s7\
        1e/6u8b/+Tt47/ba+n/zyjsP8AlKb/G4KJ/0NwXv9YYy//XVsx/1VbWf9IXXb/w7wA/767AP+vtlf/lq6D/3Sim/9IkqL/AH+a/wBrhv8pWWr/VkpL/3JDLf+DQBj/
        """
}
